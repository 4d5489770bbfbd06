#pragma once
// Cost of collectives on the network tiers a group spans. Ring algorithms; a group that spans
// several scale-up domains runs hierarchically (inside the domain, then across domains).

#include "comet/spec.hpp"

namespace comet {

// Effective (achievable) link of one tier, per accelerator per direction.
struct Link {
    double bytes_per_s = 0;
    double latency_s = 0;
};

// Where the members of one communication group sit: `inner` members share a scale-up
// domain, and `outer` domains take part.
struct GroupSpan {
    int inner = 1;
    int outer = 1;
    Link up;   // scale-up link
    Link out;  // scale-out link (with the spine's latency when the group crosses it)
    // Crossing an oversubscribed spine: how much slower a rank's scale-out traffic runs in a
    // ring (and ring-like exchanges: pipeline and CP neighbours) and in an all-to-all.
    double ring_slowdown = 1.0;
    double a2a_slowdown = 1.0;
    // Rail-only fabric: the share of a member's scale-out bytes that must also cross the
    // scale-up domain to reach a peer on another rail ((inner - 1) / inner; 0 otherwise).
    double rail_forward = 0.0;
    // An all-reduce reduced in the switches of the scale-up domain (NCCL's NVLS): its algorithm
    // bandwidth (buffer bytes per second) and latency; bytes_per_s 0 = not available (the fabric
    // has none, the software turns it off, or the group leaves the domain).
    Link in_switch{};
    [[nodiscard]] constexpr int size() const noexcept { return inner * outer; }
};

// Ring collectives among n ranks on one link; `bytes` is the full buffer size per rank.
[[nodiscard]] double ring_all_reduce_s(double bytes, int n, Link link) noexcept;
[[nodiscard]] double ring_reduce_scatter_s(double bytes, int n, Link link) noexcept;
[[nodiscard]] double ring_all_gather_s(double bytes, int n, Link link) noexcept;
// NCCL's double binary tree all-reduce: every rank sends and receives its buffer once up and
// once down (2 x bytes / bandwidth), in 2 x ceil(log2 n) latency steps instead of 2 (n - 1).
[[nodiscard]] double tree_all_reduce_s(double bytes, int n, Link link) noexcept;

// NCCL's latency for an NVLS collective inside one node: 25 us, whatever the group's size
// (hwLatencies[NVLINK][NVLS][Simple], src/graph/tuning.cc at NVIDIA/nccl 5067397).
inline constexpr double nvls_latency_s = 25e-6;

// Collectives on a group that may span both tiers. An all-reduce inside one domain whose
// GroupSpan::in_switch is set takes the faster of the ring and the in-switch reduction, as
// NCCL's tuner picks by size.
[[nodiscard]] double all_reduce_s(double bytes, const GroupSpan& g) noexcept;
[[nodiscard]] double reduce_scatter_s(double bytes, const GroupSpan& g) noexcept;
[[nodiscard]] double all_gather_s(double bytes, const GroupSpan& g) noexcept;
// An all-to-all: each tier's share of the buffer over its bandwidth plus one latency of that
// tier (NCCL posts every peer's send and receive at once), the slower tier bounding it.
[[nodiscard]] double all_to_all_s(double bytes, const GroupSpan& g) noexcept;
// A hierarchical (domain-deduplicating) dispatch of token copies, DeepEP's internode kernels
// and NVIDIA's HybridEP: a token crosses the scale-out network once per remote scale-up domain
// that holds any of its experts, to the rank of the same local index (its rail), which forwards
// it over scale-up to the experts there; the combine runs the same path back. `bytes` is the
// flat all-to-all's buffer (every copy), `dedup` the share of the flat scale-out copies still
// sent (dispatch_dedup).
[[nodiscard]] double hierarchical_all_to_all_s(double bytes, const GroupSpan& g, double dedup) noexcept;
// The scale-out share that deduplication leaves: a token's k experts are distinct and, with
// balanced routing, uniform over `experts`, spread evenly over `domains`; a remote domain
// receives the token once when it holds at least one of them (probability
// 1 - C(E - E/D, k) / C(E, k)), where the flat dispatch sends it k (D-1)/D copies on average.
[[nodiscard]] double dispatch_dedup(int experts, int top_k, int domains) noexcept;
// One message between two ranks `stride` apart.
[[nodiscard]] double p2p_s(double bytes, bool same_domain, const GroupSpan& g) noexcept;

// Placement: ranks are numbered tp fastest, then dp, then pp (Megatron-LM's default order), and
// consecutive ranks fill the scale-up domains the job holds (placement_domain). A group of
// `size` ranks `stride` apart tiles the ranks in blocks of size x stride; where such blocks do
// not line up with the domains, some group straddles two of them, and the group is priced on
// its smallest piece in one domain: gcd(domain, size x stride) / stride members share the
// scale-up link, the rest of the group is reached over scale-out (docs/model.md, "Placement").
// `nodes` is the job's node count (0 = whole domains).
[[nodiscard]] GroupSpan span_group(int size, int stride, const NodeSpec& node, int nodes) noexcept;
// The same group for an all-reduce under `software`: where the software lets the collective
// library reduce in the switches (SoftwareSpec::nvls), the node's fabric can
// (scale_up.switch_allreduce_fraction > 0) and the whole group sits in one domain, all_reduce_s()
// may take NVLS instead of the ring (docs/model.md, "Collectives").
[[nodiscard]] GroupSpan span_group(int size, int stride, const NodeSpec& node, int nodes, const SoftwareSpec& software) noexcept;
// Accelerators of one scale-up domain the job's consecutive ranks fill. A domain wider than a
// node (GB200 NVL72: 18 trays) is not always filled whole: the scheduler gives the job the same
// number of nodes in every domain it touches, the largest count up to the domain's that
// divides the job's nodes (SLURM's --segment, as NVIDIA's launch scripts set it): 64 trays of
// NVL72 run as 4 x 16 trays, 64 GPUs per NVLink domain. `nodes` 0 = the whole domain.
[[nodiscard]] int placement_domain(const NodeSpec& node, int nodes) noexcept;
[[nodiscard]] Link scale_up_link(const NodeSpec& node) noexcept;
[[nodiscard]] Link scale_out_link(const NodeSpec& node) noexcept;

}  // namespace comet
