#include "calibrate/pdcal/fabric_transport.hpp"

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#include <cstdlib>
#include <cstring>
#include <set>

#include "calibrate/pdcal/fabric_address.hpp"
#include "calibrate/pdcal/probe_error.hpp"

namespace pdsim::pdcal {
namespace {

// The provider's RDM endpoints with tagged messages and RMA. Prefer delivery-complete writes (a
// completed write is visible at the target); fall back to send-after-write ordering, under which
// the "done" message that follows the writes cannot overtake them. NoDeviceError when none.
fi_info* query_fabric_info(const FabricOptions& opt, bool& delivery_complete) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    fi_info* hints = fi_allocinfo();
    hints->caps = FI_TAGGED | FI_RMA;
    hints->ep_attr->type = FI_EP_RDM;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->fabric_attr->prov_name = strdup(opt.provider.c_str());
    if (attempt == 0)
      hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    else
      hints->tx_attr->msg_order = FI_ORDER_SAW;
    const char* node = opt.src_addr.empty() ? nullptr : opt.src_addr.c_str();
    fi_info* info = nullptr;
    int rc = fi_getinfo(FI_VERSION(1, 9), node, nullptr, node ? FI_SOURCE : 0, hints, &info);
    fi_freeinfo(hints);
    if (rc == 0) {
      delivery_complete = attempt == 0;
      // Endpoints keep the default completion for messages; writes ask per operation.
      for (fi_info* i = info; i != nullptr; i = i->next) i->tx_attr->op_flags = 0;
      return info;
    }
    if (attempt == 1)
      throw NoDeviceError("libfabric: provider '" + opt.provider +
                          "' offers no RDM endpoint with tagged messages and RMA on this host (" +
                          fi_strerror(-rc) + "); check `fi_info -p " + opt.provider + "`");
  }
  return nullptr;
}

void check(ssize_t rc, const char* call) {
  if (rc != 0)
    throw ProbeError(std::string("libfabric ") + call +
                     " failed: " + fi_strerror(static_cast<int>(rc < 0 ? -rc : rc)));
}

struct FabricEp {
  fi_info* info = nullptr;  // owned by the transport's list
  fid_fabric* fabric = nullptr;
  fid_domain* domain = nullptr;
  fid_cq* cq = nullptr;
  fid_av* av = nullptr;
  fid_ep* ep = nullptr;
  fid_mr* mr = nullptr;
  void* desc = nullptr;
  std::vector<fi_addr_t> peer_addr;
  std::vector<uint64_t> peer_key, peer_base;
};

class FabricTransport final : public Transport {
 public:
  FabricTransport(const FabricOptions& opt, Bootstrap& boot)
      : opt_(opt), rank_(boot.rank()), nranks_(boot.nranks()) {
    // A constructor that throws (a peer's bad address, a fabric error) runs no destructor.
    try {
      open(boot);
    } catch (...) {
      close_all();
      throw;
    }
  }

  ~FabricTransport() override { close_all(); }

  int rank() const override { return rank_; }
  int nranks() const override { return nranks_; }
  int endpoints() const override { return static_cast<int>(eps_.size()); }
  char* buffer() override { return buf_; }
  size_t buffer_bytes() const override { return bytes_; }

  void post_send(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    op.done = false;
    auto& ep = eps_[0];
    uint64_t t = (static_cast<uint64_t>(rank_) << 32) | tag;
    retry("fi_tsend", [&] {
      return fi_tsend(ep.ep, buf_ + offset, bytes, ep.desc, ep.peer_addr[static_cast<size_t>(peer)],
                      t, op.ctx);
    });
  }
  void post_recv(int peer, uint32_t tag, size_t offset, size_t bytes, Op& op) override {
    op.done = false;
    auto& ep = eps_[0];
    uint64_t t = (static_cast<uint64_t>(peer) << 32) | tag;
    retry("fi_trecv", [&] {
      return fi_trecv(ep.ep, buf_ + offset, bytes, ep.desc, FI_ADDR_UNSPEC, t, 0, op.ctx);
    });
  }
  void post_write(int peer, int e, size_t local_offset, size_t remote_offset, size_t bytes,
                  Op& op) override {
    op.done = false;
    auto& ep = eps_[static_cast<size_t>(e)];
    auto p = static_cast<size_t>(peer);
    iovec iov{buf_ + local_offset, bytes};
    fi_rma_iov rma{ep.peer_base[p] + remote_offset, bytes, ep.peer_key[p]};
    fi_msg_rma msg{};
    msg.msg_iov = &iov;
    msg.desc = &ep.desc;
    msg.iov_count = 1;
    msg.addr = ep.peer_addr[p];
    msg.rma_iov = &rma;
    msg.rma_iov_count = 1;
    msg.context = op.ctx;
    // Only writes ask for delivery-complete: messages are matched by the receiver's own
    // completion, and delivery acks on them would add a round trip to every ping.
    const uint64_t flags = FI_COMPLETION | (delivery_complete_ ? FI_DELIVERY_COMPLETE : 0);
    retry("fi_writemsg", [&] { return fi_writemsg(ep.ep, &msg, flags); });
  }

  void progress() override {
    fi_cq_entry entries[16];
    for (auto& ep : eps_) {
      ssize_t n = fi_cq_read(ep.cq, entries, 16);
      if (n == -FI_EAGAIN) continue;
      if (n == -FI_EAVAIL) {
        fi_cq_err_entry err{};
        fi_cq_readerr(ep.cq, &err, 0);
        throw ProbeError(std::string("libfabric completion error: ") +
                         fi_cq_strerror(ep.cq, err.prov_errno, err.err_data, nullptr, 0) + " (" +
                         fi_strerror(err.err) + "; peer died?)");
      }
      if (n < 0) check(n, "fi_cq_read");
      for (ssize_t i = 0; i < n; ++i) static_cast<Op*>(entries[i].op_context)->done = true;
    }
  }

  nlohmann::json describe() const override {
    const fi_info* i = eps_[0].info;
    nlohmann::json domains = nlohmann::json::array();
    for (const auto& ep : eps_) domains.push_back(ep.info->domain_attr->name);
    uint32_t v = fi_version();
    return {{"api", "libfabric"},
            {"libfabric_version", std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v))},
            {"libfabric_compiled_version",
             std::to_string(FI_MAJOR_VERSION) + "." + std::to_string(FI_MINOR_VERSION)},
            {"provider", i->fabric_attr->prov_name},
            {"fabric", i->fabric_attr->name},
            {"device", domains},
            {"endpoints", eps_.size()},
            {"completion", delivery_complete_ ? "FI_DELIVERY_COMPLETE" : "FI_ORDER_SAW"}};
  }

 private:
  void open(Bootstrap& boot) {
    const FabricOptions& opt = opt_;
    bytes_ = (opt.buffer_bytes + 4095) / 4096 * 4096;
    buf_ = static_cast<char*>(std::aligned_alloc(4096, bytes_));
    if (buf_ == nullptr) throw ProbeError("cannot allocate " + std::to_string(bytes_) + " bytes");
    std::memset(buf_, 0, bytes_);
    get_info();
    std::vector<fi_info*> domains;
    std::set<std::string> seen;
    for (fi_info* i = info_; i != nullptr; i = i->next)
      if (seen.insert(std::string(i->domain_attr->name)).second) domains.push_back(i);
    eps_.resize(static_cast<size_t>(opt.endpoints));
    std::vector<FabricEpAddress> mine(eps_.size());
    std::vector<FabricNameRule> name_rules;
    for (size_t e = 0; e < eps_.size(); ++e) {
      eps_[e].info = opt.stripe_domains ? domains[e % domains.size()] : info_;
      open_ep(eps_[e]);
      char name[kMaxFabricNameBytes];
      size_t len = sizeof name;
      check(fi_getname(&eps_[e].ep->fid, name, &len), "fi_getname");
      mine[e] = {std::string(name, len), fi_mr_key(eps_[e].mr), reinterpret_cast<uint64_t>(buf_)};
      name_rules.push_back({len, eps_[e].info->addr_format == FI_ADDR_STR});
    }
    auto all = boot.allgather(encode_fabric_address(mine), opt.timeout_s);
    for (auto& ep : eps_) {
      ep.peer_addr.assign(all.size(), FI_ADDR_UNSPEC);
      ep.peer_key.resize(all.size());
      ep.peer_base.resize(all.size());
    }
    for (size_t r = 0; r < all.size(); ++r) {
      const auto peer = decode_fabric_address(all[r], name_rules, "rank " + std::to_string(r));
      for (size_t e = 0; e < eps_.size(); ++e) {
        auto& ep = eps_[e];
        ep.peer_key[r] = peer[e].key;
        ep.peer_base[r] = (ep.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? peer[e].base : 0;
        if (fi_av_insert(ep.av, peer[e].name.data(), 1, &ep.peer_addr[r], 0, nullptr) != 1)
          throw ProbeError("libfabric fi_av_insert failed for rank " + std::to_string(r));
      }
    }
  }

  void close_all() noexcept {
    for (auto& ep : eps_) {
      if (ep.mr) fi_close(&ep.mr->fid);
      if (ep.ep) fi_close(&ep.ep->fid);
      if (ep.av) fi_close(&ep.av->fid);
      if (ep.cq) fi_close(&ep.cq->fid);
      if (ep.domain) fi_close(&ep.domain->fid);
      if (ep.fabric) fi_close(&ep.fabric->fid);
    }
    if (info_) fi_freeinfo(info_);
    std::free(buf_);
    eps_.clear();
    info_ = nullptr;
    buf_ = nullptr;
  }

  template <class F>
  void retry(const char* call, F&& f) {
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(opt_.timeout_s));
    for (;;) {
      ssize_t rc = f();
      if (rc == 0) return;
      if (rc != -FI_EAGAIN) check(rc, call);
      progress();
      if (Clock::now() > deadline)
        throw ProbeError(std::string("timeout: ") + call + " could not be queued for " +
                         std::to_string(static_cast<int>(opt_.timeout_s)) +
                         " s (peer dead or hung?)");
    }
  }

  void get_info() { info_ = query_fabric_info(opt_, delivery_complete_); }

  void open_ep(FabricEp& ep) {
    fi_info* info = ep.info;
    check(fi_fabric(info->fabric_attr, &ep.fabric, nullptr), "fi_fabric");
    check(fi_domain(ep.fabric, info, &ep.domain, nullptr), "fi_domain");
    fi_cq_attr cq_attr{};
    cq_attr.format = FI_CQ_FORMAT_CONTEXT;
    cq_attr.size = 1024;
    check(fi_cq_open(ep.domain, &cq_attr, &ep.cq, nullptr), "fi_cq_open");
    fi_av_attr av_attr{};
    av_attr.type = FI_AV_TABLE;
    check(fi_av_open(ep.domain, &av_attr, &ep.av, nullptr), "fi_av_open");
    check(fi_endpoint(ep.domain, info, &ep.ep, nullptr), "fi_endpoint");
    check(fi_ep_bind(ep.ep, &ep.cq->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind(cq)");
    check(fi_ep_bind(ep.ep, &ep.av->fid, 0), "fi_ep_bind(av)");
    check(fi_enable(ep.ep), "fi_enable");
    uint64_t access = FI_SEND | FI_RECV | FI_WRITE | FI_REMOTE_WRITE;
    uint64_t requested_key = static_cast<uint64_t>(&ep - eps_.data()) + 1;
    check(fi_mr_reg(ep.domain, buf_, bytes_, access, 0, requested_key, 0, &ep.mr, nullptr),
          "fi_mr_reg");
    if (info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
      check(fi_mr_bind(ep.mr, &ep.ep->fid, 0), "fi_mr_bind");
      check(fi_mr_enable(ep.mr), "fi_mr_enable");
    }
    ep.desc = fi_mr_desc(ep.mr);
  }

  FabricOptions opt_;
  int rank_, nranks_;
  size_t bytes_ = 0;
  char* buf_ = nullptr;
  fi_info* info_ = nullptr;
  bool delivery_complete_ = false;
  std::vector<FabricEp> eps_;
};

}  // namespace

void fabric_check_provider(const FabricOptions& opt) {
  bool delivery_complete = false;
  fi_freeinfo(query_fabric_info(opt, delivery_complete));
}

std::unique_ptr<Transport> make_fabric_transport(const FabricOptions& opt, Bootstrap& boot) {
  return std::make_unique<FabricTransport>(opt, boot);
}

}  // namespace pdsim::pdcal
