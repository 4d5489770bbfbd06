#include "comet/compute.hpp"

#include <algorithm>

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
    r.host_op_s = units::us_to_s(node.host_op_us);
    r.tile_overhead_k = node.gemm.tile_overhead_k;
    return r;
}

double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept {
    double flop_s = cost.flops / r.vector_flops_per_s;
    if (kind == OpKind::gemm) {
        flop_s = cost.flops / r.matrix_flops_per_s * (1.0 + r.tile_overhead_k * cost.inv_inner);
    } else if (kind == OpKind::fused_attention) {
        // Softmax work the kernel cannot hide, in head-dimension steps, against the products
        // over the head dimension; the key loop (inv_inner = 1 / keys per query tile) pays the
        // tile fill like a GEMM's inner loop; backward runs at its own efficiency.
        const double d = cost.head_dim > 0 ? cost.head_dim : 128.0;
        const double rate = r.attention_flops_per_s * d / (d + r.softmax_head_dim) *
                            (cost.backward ? r.attention_backward : 1.0);
        flop_s = cost.flops / rate * (1.0 + r.tile_overhead_k * cost.inv_inner);
    }
    return std::max(flop_s, cost.bytes / r.hbm_bytes_per_s) + cost.kernels * r.launch_s;
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
        if (lw.ops[static_cast<std::size_t>(i)].host_sync) { sync = i; break; }
    if (sync < 0 || rates.host_op_s <= 0) return 0.0;
    double host = 0, device = 0;
    for (int n = 0; n < lw.count; ++n) {
        const Op& op = lw.ops[static_cast<std::size_t>((sync + n) % lw.count)];
        const double g = pass_time_s(op.fwd, op.kind, rates);
        const double k = std::max(1.0, op.fwd.kernels);
        const double h = op.fwd.kernels * rates.host_op_s;
        device = std::max(device, host + h / k) + g;
        host += h;
        device = std::max(device, host + g / k);
    }
    return std::max(host, device);
}

}  // namespace comet
