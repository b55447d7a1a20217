#!/usr/bin/env python3
"""Triton FP8 fused-MoE expert GEMM on the GPU it runs on: the kernel family SGLang runs for the
experts when the MoE has no all-to-all (`--moe-a2a-backend none`: Fp8MoEMethod.create_moe_runner
resolves `--moe-runner-backend auto` to Triton unless DeepEP and JIT DeepGEMM are on).

A PROXY written for pdsim, not SGLang's kernel: tokens sorted by expert and padded to BLOCK_M,
one program per (M block, N block), FP8 e4m3 activations with 1 x 128 scales and weights with
128 x 128 block scales, fp32 accumulation rescaled per 128-wide K block, BF16 out. For each shape
and tokens per expert the fastest of a small grid of block shapes, warps and stages is kept, as
SGLang keeps a tuned config per shape. Shapes: DeepSeek-V3/R1 experts (hidden 7168,
moe_intermediate 2048) as one decode rank holds them with EP16 (16 experts, gate/up 7168 -> 4096,
down 2048 -> 7168) and with pure TP16 MoE (256 experts, each split 16 ways: 7168 -> 256,
128 -> 7168), every expert active with M tokens.

Timing: 20 calls captured in a CUDA graph, replayed after warm-up, CUDA events; the weights
(235-470 MB per call) are far above L2, so every call streams them from HBM. Correctness: every
shape's output against a float64 reference of the dequantised operands on sampled rows.
eff = max(flops / FP8 peak, bytes / HBM) / time with the datasheet peaks of the GPU's entry in
models/catalog/gpu (h200.json, h100.json: fp8_dense_tflops, hbm_GBps) and bytes as models/ffn_ops.cpp counts experts.gate_up/down:
weights with their block scales, FP8 activations with their scales, BF16 outputs.

Usage: python3 hwkernels/fused_moe_triton.py OUT.json
"""
import json
import os
import sys
import time

import torch
import triton
import triton.language as tl

CATALOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "catalog", "gpu")
GROUP = 128


def datasheet_peaks(device_name):
    """Dense FP8 FLOP/s and HBM B/s of the catalog entry whose name the device's name holds."""
    for entry in ("h200", "h100"):
        if entry.upper() in device_name:
            with open(os.path.join(CATALOG, entry + ".json")) as f:
                g = json.load(f)
            return g["fp8_dense_tflops"] * 1e12, g["hbm_GBps"] * 1e9
    sys.exit(f"no models/catalog/gpu entry for {device_name}")


@triton.jit
def moe_gemm(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, rows_ptr, expert_ptr, N, K,
             stride_am, stride_asm, stride_be, stride_bn, stride_bse, stride_bsn, stride_cm,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    e = tl.load(expert_ptr + pid_m).to(tl.int64)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rows = tl.load(rows_ptr + offs_m)
    valid = rows >= 0
    rows = tl.where(valid, rows, 0).to(tl.int64)
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + e * stride_be + offs_n[None, :] * stride_bn + offs_k[:, None]
    as_ptrs = as_ptr + rows * stride_asm
    bs_ptrs = bs_ptr + e * stride_bse + (offs_n // BLOCK_K) * stride_bsn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=valid[:, None], other=0.0)
        b = tl.load(b_ptrs)
        a_s = tl.load(as_ptrs + kb, mask=valid, other=0.0)
        b_s = tl.load(bs_ptrs + kb)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    c_ptrs = c_ptr + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.bfloat16), mask=valid[:, None])


def layout(E, M, block_m):
    """Rows sorted by expert, each expert's M rows padded to a multiple of block_m (-1 = pad)."""
    per = -(-M // block_m) * block_m
    rows = torch.full((E * per,), -1, dtype=torch.int32)
    experts = torch.empty((E * per // block_m,), dtype=torch.int32)
    for e in range(E):
        rows[e * per:e * per + M] = torch.arange(e * M, (e + 1) * M, dtype=torch.int32)
        experts[e * per // block_m:(e + 1) * per // block_m] = e
    return rows.cuda(), experts.cuda()


def quant_act(x):
    """BF16 [T, K] -> FP8 e4m3 with one fp32 scale per 1 x 128 group."""
    T, K = x.shape
    g = x.float().view(T, K // GROUP, GROUP)
    s = g.abs().amax(dim=2).clamp(min=1e-6) / 448.0
    q = (g / s[:, :, None]).to(torch.float8_e4m3fn).view(T, K)
    return q, s.contiguous()


def make_weights(E, N, K):
    w = torch.randn(E, N, K, device="cuda", dtype=torch.bfloat16) * 0.02
    g = w.float().view(E, N // GROUP, GROUP, K // GROUP, GROUP)
    s = g.abs().amax(dim=(2, 4)).clamp(min=1e-6) / 448.0
    q = (g / s[:, :, None, :, None]).to(torch.float8_e4m3fn).view(E, N, K)
    del w, g
    return q, s.contiguous()


def run(a, a_s, b, b_s, c, rows, experts, N, K, cfg):
    bm, bn, warps, stages = cfg
    grid = (experts.numel(), N // bn)
    moe_gemm[grid](a, a_s, b, b_s, c, rows, experts, N, K,
                   a.stride(0), a_s.stride(0), b.stride(0), b.stride(1), b_s.stride(0),
                   b_s.stride(1), c.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=GROUP,
                   num_warps=warps, num_stages=stages)


def check(a, a_s, b, b_s, c, E, M, K, per):
    """Max relative error of sampled output rows against float64 dequantised operands (output
    row e * per + m holds expert e's m-th token, A row e * M + m)."""
    worst = 0.0
    for e in sorted({0, E // 2, E - 1}):
        for m in sorted({0, M - 1}):
            r = e * M + m
            x = a[r].double().view(K // GROUP, GROUP) * a_s[r].double()[:, None]
            w = b[e].double().view(b.shape[1] // GROUP, GROUP, K // GROUP, GROUP)
            w = (w * b_s[e].double()[:, None, :, None]).view(b.shape[1], K)
            ref = w @ x.view(K)
            got = c[e * per + m].double()
            err = (got - ref).abs().max().item() / max(ref.abs().max().item(), 1e-12)
            worst = max(worst, err)
    return worst


def time_graph(fn, calls=20, reps=7):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(calls):
            fn()
    g.replay()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0.record()
        g.replay()
        t1.record()
        t1.synchronize()
        out.append(t0.elapsed_time(t1) * 1000.0 / calls)
    out.sort()
    return {"median": out[len(out) // 2], "min": out[0], "max": out[-1], "n": reps}


CONFIGS_SMALL = [(16, 64, 4, 3), (16, 64, 4, 4), (16, 128, 4, 3), (16, 128, 8, 4), (16, 32, 4, 4)]
CONFIGS_LARGE = [(32, 64, 4, 3), (64, 64, 4, 3), (64, 128, 4, 3), (64, 128, 8, 3), (32, 128, 4, 4)]


def main():
    out_path = sys.argv[1]
    torch.manual_seed(0)
    props = torch.cuda.get_device_properties(0)
    FP8_PEAK, HBM = datasheet_peaks(props.name)
    result = {"what": __doc__.strip().splitlines()[0], "gpu": props.name,
              "torch": torch.__version__, "triton": triton.__version__,
              "cuda": torch.version.cuda, "peaks_used": {"fp8": FP8_PEAK, "hbm": HBM},
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "series": []}
    shapes = [("ep16", "gate_up", 16, 4096, 7168), ("ep16", "down", 16, 7168, 2048),
              ("tp16", "gate_up", 256, 256, 7168), ("tp16", "down", 256, 7168, 128)]
    for layout_name, op, E, N, K in shapes:
        b, b_s = make_weights(E, N, K)
        series = {"layout": layout_name, "op": op, "experts": E, "N": N, "K": K, "rows": []}
        for M in [1, 2, 4, 8, 16, 32, 64, 128, 256]:
            x = torch.randn(E * M, K, device="cuda", dtype=torch.bfloat16)
            a, a_s = quant_act(x)
            best = None
            for cfg in (CONFIGS_SMALL if M <= 16 else CONFIGS_LARGE):
                rows, experts = layout(E, M, cfg[0])
                c = torch.zeros(E * -(-M // cfg[0]) * cfg[0], N, device="cuda",
                                dtype=torch.bfloat16)
                try:
                    run(a, a_s, b, b_s, c, rows, experts, N, K, cfg)
                    torch.cuda.synchronize()
                except Exception as ex:  # a config Triton cannot build here
                    print(f"skip {layout_name} {op} M={M} cfg={cfg}: {ex}", file=sys.stderr)
                    continue
                t = time_graph(lambda: run(a, a_s, b, b_s, c, rows, experts, N, K, cfg))
                if best is None or t["median"] < best[1]["median"]:
                    err = check(a, a_s, b, b_s, c, E, M, K, -(-M // cfg[0]) * cfg[0])
                    best = (cfg, t, err)
            cfg, t, err = best
            flops = 2.0 * E * M * N * K
            weight_bytes = E * (N * K + (N // GROUP) * (K // GROUP) * 4)
            byts = weight_bytes + E * M * K * (1 + 4 / GROUP) + E * M * N * 2
            roof = max(flops / FP8_PEAK, byts / HBM) * 1e6
            row = {"M": M, "config": {"BLOCK_M": cfg[0], "BLOCK_N": cfg[1], "num_warps": cfg[2],
                                      "num_stages": cfg[3]},
                   "us": t, "flops": flops, "bytes": byts, "eff": round(roof / t["median"], 4),
                   "check": ("pass" if err < 2e-2 else "FAIL") + f" max_rel_err={err:.3g}"}
            print(layout_name, op, M, row["config"], f"{t['median']:.2f} us", row["eff"],
                  row["check"], flush=True)
            series["rows"].append(row)
        result["series"].append(series)
        del b, b_s
        torch.cuda.empty_cache()
    result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
