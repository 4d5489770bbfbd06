#include "comet/compute.hpp"

#include <algorithm>

#include "comet/units.hpp"

namespace comet {

ComputeRates compute_rates(const NodeSpec& node, Precision precision) noexcept {
    ComputeRates r;
    const double peak = precision == Precision::fp8 ? node.matrix_fp8_tflops : node.matrix_fp16_tflops;
    r.matrix_flops_per_s = units::tflops_to_flops(peak) * node.gemm.max_fraction;
    // Attention's matrix products run at 16 bits even in fp8 training.
    r.attention_flops_per_s = units::tflops_to_flops(node.matrix_fp16_tflops) * node.gemm.max_fraction *
                              fused_attention_fraction_of_gemm;
    r.vector_flops_per_s = units::tflops_to_flops(node.vector_tflops);
    r.hbm_bytes_per_s = units::gbps_to_bytes_per_s(node.hbm_bandwidth_gbps) * node.hbm_efficiency;
    r.launch_s = units::us_to_s(node.gemm.launch_overhead_us);
    r.tile_overhead_k = node.gemm.tile_overhead_k;
    return r;
}

double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept {
    double flop_s = cost.flops / r.vector_flops_per_s;
    if (kind != OpKind::elementwise) {
        const double rate = kind == OpKind::gemm ? r.matrix_flops_per_s : r.attention_flops_per_s;
        flop_s = cost.flops / rate * (1.0 + r.tile_overhead_k * cost.inv_inner);
    }
    return std::max(flop_s, cost.bytes / r.hbm_bytes_per_s) + cost.kernels * r.launch_s;
}

}  // namespace comet
