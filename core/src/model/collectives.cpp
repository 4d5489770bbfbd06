#include "comet/collectives.hpp"

#include <algorithm>
#include <numeric>
#include <cmath>

#include "comet/units.hpp"

namespace comet {

namespace {
// The scale-out link as a ring (or neighbour exchange) of the group sees it.
Link ring_out(const GroupSpan& g) noexcept { return {g.out.bytes_per_s / g.ring_slowdown, g.out.latency_s}; }
}  // namespace

double ring_all_reduce_s(double bytes, int n, Link link) noexcept {
    if (n <= 1 || bytes <= 0) return 0.0;
    const double k = n - 1.0;
    return 2.0 * k / n * bytes / link.bytes_per_s + 2.0 * k * link.latency_s;
}

double tree_all_reduce_s(double bytes, int n, Link link) noexcept {
    if (n <= 1 || bytes <= 0) return 0.0;
    return 2.0 * bytes / link.bytes_per_s + 2.0 * std::ceil(std::log2(static_cast<double>(n))) * link.latency_s;
}

double ring_reduce_scatter_s(double bytes, int n, Link link) noexcept {
    if (n <= 1 || bytes <= 0) return 0.0;
    const double k = n - 1.0;
    return k / n * bytes / link.bytes_per_s + k * link.latency_s;
}

double ring_all_gather_s(double bytes, int n, Link link) noexcept { return ring_reduce_scatter_s(bytes, n, link); }

double all_reduce_s(double bytes, const GroupSpan& g) noexcept {
    // Reduce-scatter inside the domain, all-reduce of the shard across domains (every member
    // uses its own scale-out link in parallel; a ring or NCCL's tree, whichever is faster, as
    // NCCL's tuner picks by size and scale), all-gather inside the domain.
    const double shard = bytes / g.inner;
    const Link out = ring_out(g);
    const double hierarchical = ring_reduce_scatter_s(bytes, g.inner, g.up) +
                                std::min(ring_all_reduce_s(shard, g.outer, out), tree_all_reduce_s(shard, g.outer, out)) +
                                ring_all_gather_s(bytes, g.inner, g.up);
    // NVLS: every member sends its buffer into the switches, which reduce it and multicast the
    // sum back; measured as an algorithm bandwidth that holds from 5 to 8 GPUs (docs/model.md).
    if (g.outer == 1 && g.inner > 1 && bytes > 0 && g.in_switch.bytes_per_s > 0)
        return std::min(hierarchical, bytes / g.in_switch.bytes_per_s + g.in_switch.latency_s);
    return hierarchical;
}

double reduce_scatter_s(double bytes, const GroupSpan& g) noexcept {
    return ring_reduce_scatter_s(bytes, g.inner, g.up) + ring_reduce_scatter_s(bytes / g.inner, g.outer, ring_out(g));
}

double all_gather_s(double bytes, const GroupSpan& g) noexcept {
    return ring_all_gather_s(bytes / g.inner, g.outer, ring_out(g)) + ring_all_gather_s(bytes, g.inner, g.up);
}

namespace {
// Each rank keeps 1/n of its buffer, sends (inner-1)/n over scale-up and (n-inner)/n over
// scale-out, of which `out_share` still leaves the domain; `forward_share` of the bytes that
// cross scale-out also cross scale-up once more (to another rail, or to the expert's rank).
// The two tiers work at the same time, so the slower one bounds the step.
// Latency: NCCL posts the send and the receive to every peer at once (an all-to-all is one
// group of ncclSend/ncclRecv pairs, or ncclAlltoAll, which enqueues the same pairs), each peer's
// pair on its own channel, up to 8 pairs per channel batch; NCCL sizes the channels per peer so
// that every peer fits in one round (src/enqueue.cc scheduleP2pTasksToPlan and
// src/graph/paths.cc ncclTopoComputeP2pChannels at NVIDIA/nccl 5067397). So each tier pays its
// latency once, not once per peer; the bytes per peer already share the link's bandwidth.
double exchange_s(double bytes, const GroupSpan& g, double forward_share, double out_share) noexcept {
    const int n = g.size();
    if (n <= 1 || bytes <= 0) return 0.0;
    const double leaving = (n - g.inner) / static_cast<double>(n) * bytes;
    const double forwarded = g.outer > 1 ? forward_share * leaving : 0.0;
    const double up_latency = g.inner > 1 ? g.up.latency_s : 0.0;
    const double up = ((g.inner - 1.0) / n * bytes + forwarded) / g.up.bytes_per_s + up_latency;
    const double out = g.outer > 1 ? leaving * out_share * g.a2a_slowdown / g.out.bytes_per_s + g.out.latency_s : 0.0;
    return std::max(up, out);
}
}  // namespace

// On a rail-only fabric the scale-out bytes bound for other rails cross scale-up once more.
double all_to_all_s(double bytes, const GroupSpan& g) noexcept { return exchange_s(bytes, g, g.rail_forward, 1.0); }

// The copies arriving from other domains land on the rank of the same local index, which
// forwards (inner-1)/inner of them to the experts' ranks.
double hierarchical_all_to_all_s(double bytes, const GroupSpan& g, double dedup) noexcept {
    return exchange_s(bytes, g, (g.inner - 1.0) / g.inner, std::clamp(dedup, 0.0, 1.0));
}

double dispatch_dedup(int experts, int top_k, int domains) noexcept {
    if (domains <= 1 || experts <= 0 || top_k <= 0) return 1.0;
    const int k = std::min(top_k, experts);
    const double elsewhere = experts - static_cast<double>(experts) / domains;  // experts not in a given domain
    double miss = 1.0;  // P(a given remote domain holds none of the token's k experts)
    for (int i = 0; i < k; ++i) miss *= std::max(0.0, (elsewhere - i) / (experts - i));
    const double flat_copies = k * (domains - 1.0) / domains;  // per token, to remote domains
    const double dedup_copies = (domains - 1.0) * (1.0 - miss);
    return std::clamp(dedup_copies / flat_copies, 0.0, 1.0);
}

double p2p_s(double bytes, bool same_domain, const GroupSpan& g) noexcept {
    if (bytes <= 0) return 0.0;
    const Link l = same_domain ? g.up : ring_out(g);
    return bytes / l.bytes_per_s + l.latency_s;
}

Link scale_up_link(const NodeSpec& node) noexcept {
    return {units::gbps_to_bytes_per_s(node.scale_up.bandwidth_gbps) * node.scale_up.efficiency, units::us_to_s(node.scale_up.latency_us)};
}

Link scale_out_link(const NodeSpec& node) noexcept {
    return {units::gbps_to_bytes_per_s(node.scale_out.bandwidth_gbps) * node.scale_out.efficiency,
            units::us_to_s(node.scale_out.latency_us)};
}

int placement_domain(const NodeSpec& node, int nodes) noexcept {
    const int domain = std::max(1, node.scale_up.domain_size);
    const int per_node = std::max(1, node.accelerators);
    if (nodes <= 0 || domain <= per_node || domain % per_node != 0) return domain;
    for (int segment = domain / per_node; segment > 1; --segment)
        if (nodes % segment == 0) return segment * per_node;
    return per_node;
}

GroupSpan span_group(int size, int stride, const NodeSpec& node, int nodes) noexcept {
    GroupSpan g;
    g.up = scale_up_link(node);
    g.out = scale_out_link(node);
    const int domain = placement_domain(node, nodes);
    stride = std::max(1, stride);
    size = std::max(1, size);
    // Blocks of size x stride ranks; the smallest piece of a block that one domain holds has
    // gcd(domain, block) ranks, of which every stride-th is a member.
    const long long block = static_cast<long long>(size) * stride;
    const long long piece = std::gcd(static_cast<long long>(domain), block);
    g.inner = stride >= domain ? 1 : static_cast<int>(std::clamp<long long>(piece / stride, 1, size));
    g.outer = (size + g.inner - 1) / g.inner;
    // Leaf-spine: consecutive outer members sit `ds` domains apart, so the group spans
    // outer x ds domains; beyond one leaf its traffic crosses the spine. Every group of this
    // kind runs at once, so a leaf's uplinks carry the flows of every group that leaves it:
    // a ring (or a pipeline / CP neighbour exchange) crosses each leaf boundary once, one flow
    // per k members in the leaf, and slows by oversubscription / k once k is smaller; an
    // all-to-all sends the share of its scale-out bytes that leaves the leaf through it.
    const ScaleOutNetwork& so = node.scale_out;
    // Rail-only: the inner members of a domain sit on inner different rails, each with one
    // peer per other domain on its own rail; the rest of its peers are on other rails. Rings
    // (hierarchical: across domains between same-rank members) and point-to-point exchanges
    // between domains stay on their rail.
    if (so.rail_only && g.outer > 1 && g.inner > 1) g.rail_forward = (g.inner - 1.0) / g.inner;
    if (g.outer > 1 && so.leaf_domains > 0) {
        const double ds = stride >= domain ? static_cast<double>(stride) / domain : 1.0;
        const double span = g.outer * ds;
        if (span > so.leaf_domains) {
            const double leaves = std::ceil(span / so.leaf_domains);
            const double k = std::max(1.0, g.outer / leaves);
            const double os = std::max(1.0, so.oversubscription);
            const double n = static_cast<double>(g.size());
            g.ring_slowdown = std::max(1.0, os / k);
            const double cross = n > g.inner ? std::max(0.0, (n - k * g.inner) / (n - g.inner)) : 0.0;
            g.a2a_slowdown = std::max(1.0, os * cross);
            g.out.latency_s += units::us_to_s(so.spine_latency_us);
        }
    }
    return g;
}

GroupSpan span_group(int size, int stride, const NodeSpec& node, int nodes, const SoftwareSpec& software) noexcept {
    GroupSpan g = span_group(size, stride, node, nodes);
    if (uses_nvls(node, software) && g.outer == 1 && g.inner > 1)
        g.in_switch = {units::gbps_to_bytes_per_s(node.scale_up.bandwidth_gbps) * node.scale_up.switch_allreduce_fraction, nvls_latency_s};
    return g;
}

}  // namespace comet
