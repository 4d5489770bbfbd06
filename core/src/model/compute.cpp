#include "comet/compute.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "comet/op_rates.hpp"
#include "comet/units.hpp"

namespace comet {

double matrix_peak_tflops(const NodeSpec& node, Precision precision) noexcept {
    return is_fp4(precision) ? node.matrix_fp4_tflops : is_fp8(precision) ? node.matrix_fp8_tflops : node.matrix_fp16_tflops;
}

double gemm_max_fraction(const NodeSpec& node, Precision precision) noexcept {
    const GemmModel& g = node.gemm;
    if (is_fp4(precision) && g.fp4_max_fraction > 0) return g.fp4_max_fraction;
    if (is_quantized(precision) && g.fp8_max_fraction > 0) return g.fp8_max_fraction;
    return g.max_fraction;
}

double gemm_tile_overhead_k(const NodeSpec& node, Precision precision) noexcept {
    return is_quantized(precision) && node.gemm.fp8_tile_overhead_k > 0 ? node.gemm.fp8_tile_overhead_k : node.gemm.tile_overhead_k;
}

double attention_fill_keys(const NodeSpec& node, const AttentionModel& kernel) noexcept {
    return kernel.fill_keys >= 0 ? kernel.fill_keys : node.gemm.tile_overhead_k;
}

ComputeRates compute_rates(const NodeSpec& node, Precision precision) noexcept {
    ComputeRates r;
    const double fraction = gemm_max_fraction(node, precision);
    r.matrix_flops_per_s = units::tflops_to_flops(matrix_peak_tflops(node, precision)) * fraction;
    // Attention's matrix products run at 16 bits even in fp8 and fp4 training.
    r.attention_flops_per_s = units::tflops_to_flops(node.matrix_fp16_tflops) * node.attention.max_fraction;
    r.attention_backward = node.attention.backward_efficiency;
    r.softmax_head_dim = node.attention.softmax_head_dim;
    r.vector_flops_per_s = units::tflops_to_flops(node.vector_tflops);
    r.hbm_bytes_per_s = units::gbps_to_bytes_per_s(node.hbm_bandwidth_gbps) * node.hbm_efficiency;
    r.launch_s = units::us_to_s(node.gemm.launch_overhead_us);
    r.tile_overhead_k = gemm_tile_overhead_k(node, precision);
    r.attention_fill_keys = attention_fill_keys(node, node.attention);
    r.sms = node.gemm.sms;
    r.max_split_k = node.gemm.max_split_k;
    r.min_split_k_depth = node.gemm.min_split_k_depth;
    return r;
}

ComputeRates compute_rates(const NodeSpec& node, const TrainingSpec& training, const SoftwareSpec& software) noexcept {
    ComputeRates r = compute_rates(node, training.precision);
    // FlashAttention-2 at its own rate where the node gives one, else as the node's kernel.
    const AttentionModel& fa2 = node.attention_flash2;
    if (software.fused_attention == FusedAttention::flash2 && fa2.max_fraction > 0) {
        r.attention_flops_per_s = units::tflops_to_flops(node.matrix_fp16_tflops) * fa2.max_fraction;
        r.attention_backward = fa2.backward_efficiency;
        r.softmax_head_dim = fa2.softmax_head_dim;
        r.attention_fill_keys = attention_fill_keys(node, fa2);
    }
    r.host_op_s = units::us_to_s(software.host_op_us);
    r.routed_only = software.graph_scope == GraphScope::dense;
    if (captures_whole_step(training, software)) {
        r.host_op_s = 0.0;
        r.host_issues = false;
    }
    return r;
}

namespace {
// ops::tiled_gemm_s() of the training model's GEMMs, remembered per thread: a search prices the
// same few shapes at the same rates for thousands of candidates, and a sweep over network or
// memory knobs in every cell. A direct-mapped table compared field by field; tiled_gemm_s() is
// a pure function, so a hit is the very number it would compute.
bool same_gemm(const ops::TiledGemm& a, const ops::TiledGemm& b) noexcept {
    return a.batch == b.batch && a.m == b.m && a.n == b.n && a.k == b.k && a.flops_per_s == b.flops_per_s &&
           a.tile_fill_k == b.tile_fill_k && a.sms == b.sms && a.max_split_k == b.max_split_k &&
           a.min_split_k_depth == b.min_split_k_depth && a.traffic_s == b.traffic_s && a.epilogue_s == b.epilogue_s &&
           a.split_partials_s == b.split_partials_s;
}

double tiled_gemm_remembered_s(const ops::TiledGemm& g) noexcept {
    struct Slot {
        ops::TiledGemm key;
        double time_s = -1;  // < 0: empty
    };
    constexpr std::size_t slots = 1024;  // a power of two
    thread_local std::array<Slot, slots> table{};
    // GEMM sizes and rates are round numbers whose low mantissa bits are all zero: each field is
    // folded in by a multiply (which carries bits upward only), and a 64-bit finalizer (murmur3's
    // fmix64) brings the high bits down to the slot.
    std::uint64_t h = 0;
    const auto fold = [&h](double v) noexcept { h = (h ^ std::bit_cast<std::uint64_t>(v)) * 0x9e3779b97f4a7c15ULL; };
    fold(g.batch), fold(g.m), fold(g.n), fold(g.k), fold(g.flops_per_s), fold(g.tile_fill_k);
    fold(static_cast<double>(g.sms)), fold(static_cast<double>(g.max_split_k)), fold(g.min_split_k_depth);
    h ^= h >> 33, h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33, h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    Slot& slot = table[h & (slots - 1)];
    if (slot.time_s >= 0 && same_gemm(slot.key, g)) return slot.time_s;
    slot.key = g;
    slot.time_s = ops::tiled_gemm_s(g);
    return slot.time_s;
}

// The compute side of a kernel's roofline (pass_time_s() is its max with the memory side, plus
// the launches).
double flop_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept {
    if (kind == OpKind::gemm) {
        // Each product in tiles over the SMs (ops::tiled_gemm_s, the per-op model's GEMM); a
        // product issued as several kernels quantizes each kernel's grid on its own.
        double t = 0;
        for (const GemmDims& g : cost.gemms) {
            if (!(g.batch > 0)) continue;
            const double kernels = g.kernels >= 1 ? g.kernels : 1.0;
            ops::TiledGemm tg;
            tg.batch = g.batch / kernels, tg.m = g.m, tg.n = g.n, tg.k = g.k;
            tg.flops_per_s = r.matrix_flops_per_s;
            tg.tile_fill_k = r.tile_overhead_k;
            tg.sms = r.sms;
            tg.max_split_k = r.max_split_k;
            tg.min_split_k_depth = r.min_split_k_depth;
            t += kernels * tiled_gemm_remembered_s(tg);
        }
        return t;
    }
    if (kind == OpKind::fused_attention) {
        // Softmax work the kernel cannot hide, in head-dimension steps, against the products
        // over the head dimension; the key loop (inv_inner = 1 / keys per query tile) pays the
        // tile fill like a GEMM's inner loop; backward runs at its own efficiency.
        const double d = cost.head_dim > 0 ? cost.head_dim : 128.0;
        const double rate = r.attention_flops_per_s * d / (d + r.softmax_head_dim) * (cost.backward ? r.attention_backward : 1.0);
        return cost.flops / rate * (1.0 + r.attention_fill_keys * cost.inv_inner);
    }
    return cost.flops / r.vector_flops_per_s;
}
}  // namespace

double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept {
    return std::max(flop_time_s(cost, kind, r), cost.bytes / r.hbm_bytes_per_s) + cost.launches() * r.launch_s;
}

double exposed_comm_s(double comm, double window, double overlap) noexcept {
    const double hidden = overlap * std::min(comm, window);
    return comm - hidden + overlap_contention * hidden;
}

double host_issue_s(const PassCost& cost, const ComputeRates& r) noexcept {
    if (!r.host_issues || (r.routed_only && !cost.routed)) return 0.0;
    return cost.kernels * r.host_op_s + cost.helper_kernels * r.launch_s;
}

void TimeSplit::add(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept {
    const double flop_s = flop_time_s(cost, kind, r);
    const double memory_s = cost.bytes / r.hbm_bytes_per_s;
    const bool memory_bound = memory_s > flop_s;
    double& side = kind == OpKind::gemm              ? (memory_bound ? memory_bound_gemm : gemm)
                   : kind == OpKind::fused_attention ? (memory_bound ? memory_bound_attention : attention)
                                                     : (memory_bound ? memory_bound_vector : vector);
    side += flop_s;
    (memory_bound ? hbm : compute_bound_hbm) += memory_s;
    launch += cost.launches() * r.launch_s;
}

void TimeSplit::add(const TimeSplit& o, double weight) noexcept {
    gemm += weight * o.gemm;
    attention += weight * o.attention;
    vector += weight * o.vector;
    compute_bound_hbm += weight * o.compute_bound_hbm;
    hbm += weight * o.hbm;
    memory_bound_gemm += weight * o.memory_bound_gemm;
    memory_bound_attention += weight * o.memory_bound_attention;
    memory_bound_vector += weight * o.memory_bound_vector;
    launch += weight * o.launch;
}

double TimeSplit::lower_bound(const RateSpeedups& s) const noexcept {
    auto part = [](double t, double speedup) noexcept { return t > 0 ? t / speedup : 0.0; };
    const double compute_bound =
        std::max(part(gemm, s.gemm) + part(attention, s.attention) + part(vector, s.vector), part(compute_bound_hbm, s.hbm));
    const double memory_bound = std::max(part(hbm, s.hbm), part(memory_bound_gemm, s.gemm) + part(memory_bound_attention, s.attention) +
                                                               part(memory_bound_vector, s.vector));
    return compute_bound + memory_bound + part(launch, s.launch);
}

RateSpeedups rate_speedups(const ComputeRates& a, const ComputeRates& b) noexcept {
    RateSpeedups s;
    if (a.attention_backward != b.attention_backward || a.softmax_head_dim != b.softmax_head_dim || a.host_issues != b.host_issues ||
        a.routed_only != b.routed_only || a.sms != b.sms || a.max_split_k != b.max_split_k || a.min_split_k_depth != b.min_split_k_depth)
        return s;
    // How much faster `to` is than `from` at one rate (a duration: the other way round); a rate
    // (or a cost) of zero on one side only is an unbounded speedup, on both sides none.
    constexpr double unbounded = std::numeric_limits<double>::infinity();
    auto ratio = [](double to, double from) { return from > 0 ? to / from : (to > 0 ? unbounded : 1.0); };
    // A fill can only shrink a product's time by (1 + k_from) / (1 + k_to) when k falls (each
    // tile's inner loop, K / splits, and each query row's keys are at least 1).
    auto fill = [](double from, double to) { return to < from ? (1.0 + from) / (1.0 + to) : 1.0; };
    s.gemm = ratio(b.matrix_flops_per_s, a.matrix_flops_per_s) * fill(a.tile_overhead_k, b.tile_overhead_k);
    s.attention = ratio(b.attention_flops_per_s, a.attention_flops_per_s) * fill(a.attention_fill_keys, b.attention_fill_keys);
    s.vector = ratio(b.vector_flops_per_s, a.vector_flops_per_s);
    s.hbm = ratio(b.hbm_bytes_per_s, a.hbm_bytes_per_s);
    s.launch = ratio(a.launch_s, b.launch_s);  // with none on `to` the launch part vanishes
    s.host = ratio(a.host_op_s, b.host_op_s);
    s.valid = s.gemm > 0 && s.attention > 0 && s.vector > 0 && s.hbm > 0 && std::isfinite(s.gemm) && std::isfinite(s.attention) &&
              std::isfinite(s.vector) && std::isfinite(s.hbm);
    return s;
}

// Forward time of a layer whose forward has a host synchronisation (an MoE layer's dispatch):
// the period from one sync to the next (the ops after the sync point, then those before it,
// as in consecutive layers). After a sync host and accelerator are both idle; the host issues
// op i's kernels in kernels x host_op_s, and the accelerator runs the op once its first kernel
// has arrived and the previous op is done, and ends it no earlier than its last kernel was
// issued. 0 when no op synchronises.
double synced_forward_s(const LayerWork& lw, const ComputeRates& rates) noexcept {
    int sync = -1;
    for (int i = 0; i < lw.count; ++i)
        if (lw.ops[static_cast<std::size_t>(i)].host_sync) {
            sync = i;
            break;
        }
    if (sync < 0 || rates.host_op_s <= 0) return 0.0;
    double host = 0, device = 0;
    for (int n = 0; n < lw.count; ++n) {
        const Op& op = lw.ops[static_cast<std::size_t>((sync + n) % lw.count)];
        if (n > 0 && op.host_sync) host = std::max(host, device);  // a later sync drains the queue again
        const double g = pass_time_s(op.fwd, op.kind, rates);
        const double k = std::max(1.0, op.fwd.launches());
        const double h = host_issue_s(op.fwd, rates);
        device = std::max(device, host + h / k) + g;
        host += h;
        device = std::max(device, host + g / k);
    }
    return std::max(host, device);
}

}  // namespace comet
