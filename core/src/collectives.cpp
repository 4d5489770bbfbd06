#include "comet/collectives.hpp"

#include <algorithm>
#include <cmath>

#include "comet/units.hpp"

namespace comet {

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

double ring_all_gather_s(double bytes, int n, Link link) noexcept {
    return ring_reduce_scatter_s(bytes, n, link);
}

double all_reduce_s(double bytes, const GroupSpan& g) noexcept {
    // Reduce-scatter inside the domain, all-reduce of the shard across domains (every member
    // uses its own scale-out link in parallel; a ring or NCCL's tree, whichever is faster, as
    // NCCL's tuner picks by size and scale), all-gather inside the domain.
    const double shard = bytes / g.inner;
    return ring_reduce_scatter_s(bytes, g.inner, g.up) +
           std::min(ring_all_reduce_s(shard, g.outer, g.out), tree_all_reduce_s(shard, g.outer, g.out)) +
           ring_all_gather_s(bytes, g.inner, g.up);
}

double reduce_scatter_s(double bytes, const GroupSpan& g) noexcept {
    return ring_reduce_scatter_s(bytes, g.inner, g.up) + ring_reduce_scatter_s(bytes / g.inner, g.outer, g.out);
}

double all_gather_s(double bytes, const GroupSpan& g) noexcept {
    return ring_all_gather_s(bytes / g.inner, g.outer, g.out) + ring_all_gather_s(bytes, g.inner, g.up);
}

double all_to_all_s(double bytes, const GroupSpan& g) noexcept {
    const int n = g.size();
    if (n <= 1 || bytes <= 0) return 0.0;
    // Each rank keeps 1/n of its buffer, sends (inner-1)/n over scale-up and (n-inner)/n over
    // scale-out; the two tiers work at the same time, so the slower one bounds the step.
    const double up = (g.inner - 1.0) / n * bytes / g.up.bytes_per_s + (g.inner - 1.0) * g.up.latency_s;
    const double out = g.outer > 1
                           ? (n - g.inner) / static_cast<double>(n) * bytes / g.out.bytes_per_s +
                                 (g.outer - 1.0) * g.out.latency_s
                           : 0.0;
    return std::max(up, out);
}

double p2p_s(double bytes, bool same_domain, const GroupSpan& g) noexcept {
    if (bytes <= 0) return 0.0;
    const Link& l = same_domain ? g.up : g.out;
    return bytes / l.bytes_per_s + l.latency_s;
}

Link scale_up_link(const NodeSpec& node) noexcept {
    return {units::gbps_to_bytes_per_s(node.scale_up.bandwidth_gbps) * node.scale_up.efficiency,
            units::us_to_s(node.scale_up.latency_us)};
}

Link scale_out_link(const NodeSpec& node) noexcept {
    return {units::gbps_to_bytes_per_s(node.scale_out.bandwidth_gbps) * node.scale_out.efficiency,
            units::us_to_s(node.scale_out.latency_us)};
}

GroupSpan span_group(int size, int stride, const NodeSpec& node) noexcept {
    GroupSpan g;
    g.up = scale_up_link(node);
    g.out = scale_out_link(node);
    const int domain = std::max(1, node.scale_up.domain_size);
    stride = std::max(1, stride);
    size = std::max(1, size);
    g.inner = stride >= domain ? 1 : std::clamp(domain / stride, 1, size);
    g.outer = (size + g.inner - 1) / g.inner;
    return g;
}

}  // namespace comet
