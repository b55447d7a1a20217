#include <gtest/gtest.h>

#include "models/memory_model.hpp"
#include "sim/core/error.hpp"

namespace pdsim {
namespace {

// GLM-5.1 shapes used below: h 6144, 64 heads, q_lora 2048, kv_lora 512, rope 64, nope 192,
// v 256, indexer 32 × 128, 256 experts × (3 × 6144 × 2048), dense MLP 12288, vocab 154880.
// FP8 linear [R × C] = R·C + ceil(R/128)·ceil(C/128)·4 bytes.
//   attention replicated: norms 2·6144·2 = 24576; kv_a 576·6144 + 5·48·4 = 3540 + ... (= 3,539,904)
//     + norm 1024; q_a 12,582,912 + 3072 + norm 4096; indexer wq_b 4096×2048 → 8,388,608 + 2048,
//     wk 128×6144 → 786,432 + 192, k_norm 512, weights_proj 32·6144·2 = 393,216 → 25,726,592
//   attention split: q_b 16384×2048 → 33,554,432 + 8192; kv_b 28672×512 → 14,680,064 + 3584;
//     o_proj 6144×16384 → 100,663,296 + 24,576 → 148,934,144; attention total 174,660,736
//   one expert: 2·(2048×6144 → 12,582,912 + 3072) + (6144×2048 → 12,582,912 + 3072) = 37,757,952
//   dense MLP: 2·(12288×6144 → 75,497,472 + 18,432) + 75,515,904 = 226,547,712
//   router 256·6144·2 = 3,145,728; embedding = LM head = 154880·6144·2 = 1,903,165,440
ModelConfig glm() {
  return load_model("glm-5.1-fp8");
}

TEST(ModelsMemory, KvBytesPerTokenGlm) {
  // Per layer: MLA latent + rope, BF16 (512 + 64)·2 = 1152; FP8 (FlashMLA sparse layout)
  // 512 + 4·4 + 64·2 = 656; indexer key 128 + 4 = 132. 78 layers:
  // BF16 78·(1152 + 132) = 100,152 B; FP8 78·(656 + 132) = 61,464 B.
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(glm(), KvDtype::bf16), 100152.0);
  EXPECT_DOUBLE_EQ(kv_bytes_per_token(glm(), KvDtype::fp8), 61464.0);
}

TEST(ModelsMemory, DeepEpLowLatencyBuffer) {
  // hidden 6144 → 48 scales; dispatch msg 16 + max(12288, 6144 + 192) = 12304;
  // combine msg 48·4 + 12288 = 12480. T = 128, E = 256:
  // send = max(128·12304, 256·128·12480) = 408,944,640; recv = max(256·128·12304 = 403,177,472,
  // 408,944,640) = 408,944,640; signaling align128(256·4) = 1024.
  // total = 2·(408,944,640 + 408,944,640 + 1024) = 1,635,780,608;
  // hint = ((total + 128) / 128)·128 = 1,635,780,736 B (≈ 1.64 GB).
  EXPECT_DOUBLE_EQ(deepep_ll_buffer_bytes(128, 6144, 16, 256), 1635780736.0);
}

TEST(ModelsMemory, CheckpointSizeMatchesPublished) {
  // 3 dense layers·(174,660,736 + 226,547,712) + 76 MoE layers (75 + MTP)·(174,660,736 +
  // 257·37,757,952 + 3,145,728) + MTP extras (3·6144·2 + 6144×12288 FP8 → 75,515,904) +
  // embedding + LM head 2·1,903,165,440 + final norm 12,288 = 756,087,131,008 B,
  // within 0.2 % of the published 705 GiB (757.0e9 B).
  ModelConfig m = glm();
  EXPECT_NEAR(total_weight_bytes(m), 756087131008.0, 1.0);
  EXPECT_NEAR(total_weight_bytes(m) / m.checkpoint_bytes, 1.0, 0.03);
}

TEST(ModelsMemory, WeightsPerGpuReferenceDecode) {
  // DP attention 16 (attention TP 1), EP16 → 16 experts per GPU, MTP resident.
  // MoE layer: 174,660,736 + 16·37,757,952 + 37,757,952 + 3,145,728 = 819,691,648.
  // 3·401,208,448 + 75·819,691,648 + embedding + LM head 3,806,330,880 + final norm 12,288
  // + MTP (819,691,648 + 75,515,904 + 36,864) = 67,382,086,528 B.
  ParallelLayout l;
  l.gpus = 16;
  l.tp = 16;
  l.dp_attention = 16;
  l.ep = 16;
  l.mtp = true;
  EXPECT_NEAR(weights_bytes_per_gpu(glm(), l), 67382086528.0, 1.0);
}

TEST(ModelsMemory, WeightsPerGpuReferencePrefill) {
  // TP8 with CP8 (attention replicated), PP2 (39 + 39 layers), EP8 → 32 experts per GPU,
  // moe-dense-tp 1. MoE layer: 174,660,736 + 32·37,757,952 + 37,757,952 + 3,145,728
  // = 1,423,818,880. Stage 0: 3·401,208,448 + 36·1,423,818,880 + embedding = 54,364,270,464.
  // Stage 1: 39·1,423,818,880 + norm 12,288 + LM head = 57,432,114,048 (the most loaded).
  ParallelLayout l;
  l.gpus = 16;
  l.tp = 8;
  l.cp = 8;
  l.pp = 2;
  l.ep = 8;
  EXPECT_NEAR(weights_bytes_per_gpu(glm(), l), 57432114048.0, 1.0);
}

TEST(ModelsMemory, AttentionTpSplitsHeadProjections) {
  // Same prefill layout without CP: attention TP 8 splits q_b/kv_b/o_proj (148,934,144 / 8 =
  // 18,616,768) and the LM head (1,903,165,440 / 8 = 237,895,680). Stage 1:
  // 39·(25,726,592 + 18,616,768 + 32·37,757,952 + 37,757,952 + 3,145,728) + 12,288 + 237,895,680
  // = 50,684,466,624 B.
  ParallelLayout l;
  l.tp = 8;
  l.pp = 2;
  l.ep = 8;
  EXPECT_NEAR(weights_bytes_per_gpu(glm(), l), 50684466624.0, 1.0);
  l.dp_attention = 3;  // 8 is not a multiple of 3
  EXPECT_THROW(weights_bytes_per_gpu(glm(), l), InfeasibleError);
}

TEST(ModelsMemory, ParameterCountsMatchModelCards) {
  // Qwen3-235B-A22B in BF16: per layer q/k/v (64 + 8)·128·4096 = 37,748,736, o 33,554,432,
  // 128 experts × 3·4096·1536 = 2,415,919,104, router 524,288, q/k norms 256, two RMSNorms
  // 8192 → 2,487,755,008; × 94 + embedding and LM head 2·151,936·4096 = 1,244,659,712 + final
  // norm 4096 → 235,093,634,560 parameters ≈ the published 235B (2 B each).
  EXPECT_NEAR(total_weight_bytes(load_model("qwen3-235b-a22b")) / 2, 235.09e9, 0.01e9);
  // Qwen3-8B: 36·(25,165,824 + 16,777,216 + 3·4096·12288 = 150,994,944 + norms) + 1,244,659,712
  // ≈ 8.19e9 parameters (model card: 8.2B).
  EXPECT_NEAR(total_weight_bytes(load_model("qwen3-8b")) / 2, 8.19e9, 0.01e9);
}

TEST(ModelsMemory, PlanDecodeCapacity) {
  // H200 141e9 × 0.74 = 104.34e9; − weights 67,382,086,528 − DeepEP LL 1,635,780,736
  // = 35,322,132,736 B KV pool. KV per token: 79 layers (78 + MTP draft) × 1284 = 101,436 B
  // → floor(35,322,132,736 / 101,436) = 348,220 tokens.
  ParallelLayout l;
  l.gpus = 16;
  l.tp = 16;
  l.dp_attention = 16;
  l.ep = 16;
  l.mtp = true;
  l.ll_max_dispatch_tokens_per_rank = 128;
  l.mem_fraction_static = 0.74;
  MemoryPlan p = plan_memory(glm(), load_gpu("h200"), l, KvDtype::bf16);
  EXPECT_NEAR(p.a2a_buffer_bytes, 1635780736.0, 1.0);
  EXPECT_NEAR(p.kv_bytes_per_token, 101436.0, 1e-6);
  EXPECT_NEAR(p.kv_pool_bytes, 35322132736.0, 1.0);
  EXPECT_DOUBLE_EQ(p.kv_capacity_tokens, 348220.0);
}

TEST(ModelsMemory, InfeasibleLayouts) {
  ParallelLayout l;
  l.ep = 7;  // 256 % 7 != 0
  EXPECT_THROW(plan_memory(glm(), load_gpu("h200"), l, KvDtype::bf16), InfeasibleError);
  // All 756 GB of weights on one 141 GB GPU cannot fit.
  ParallelLayout one;
  try {
    plan_memory(glm(), load_gpu("h200"), one, KvDtype::bf16);
    FAIL() << "expected InfeasibleError";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("weights need"), std::string::npos) << e.what();
  }
  // Weights fit (57.4 GB < 141 × 0.45 = 63.45 GB) but a 10 GB normal-mode buffer leaves no KV.
  ParallelLayout tight;
  tight.tp = 8;
  tight.cp = 8;
  tight.pp = 2;
  tight.ep = 8;
  tight.mem_fraction_static = 0.45;
  tight.normal_a2a_buffers = true;
  tight.normal_a2a_buffer_bytes = 10e9;
  EXPECT_THROW(plan_memory(glm(), load_gpu("h200"), tight, KvDtype::bf16), InfeasibleError);
}

}  // namespace
}  // namespace pdsim
