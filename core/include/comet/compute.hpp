#pragma once
// Compute time of one operation: a roofline of achievable matrix/vector throughput against
// achievable HBM bandwidth, plus a fixed cost per kernel launch.

#include "comet/spec.hpp"
#include "comet/workload.hpp"

namespace comet {

// Achievable rates of one accelerator for one precision, in SI units.
struct ComputeRates {
    double matrix_flops_per_s = 0;     // sustained GEMM throughput
    double attention_flops_per_s = 0;  // fused attention kernels
    double vector_flops_per_s = 0;
    double hbm_bytes_per_s = 0;
    double launch_s = 0;
    double tile_overhead_k = 0;
};

// Fused attention kernels reach a lower fraction of peak than plain GEMMs (softmax between
// the two matrix products, causal tiles, smaller head dimension): FlashAttention-2 reports
// roughly 70 % of GEMM throughput.
inline constexpr double fused_attention_fraction_of_gemm = 0.7;

// Communication overlapped with computation is not free: NCCL's kernels occupy streaming
// multiprocessors and HBM bandwidth (Calculon assumes 15 % of the processor for NVLink
// collectives). The hidden part of a collective costs this fraction of its duration.
inline constexpr double overlap_contention = 0.15;

[[nodiscard]] ComputeRates compute_rates(const NodeSpec& node, Precision precision) noexcept;
[[nodiscard]] double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept;

}  // namespace comet
