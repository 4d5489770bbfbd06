#pragma once
// Compute time of one operation: a roofline of achievable matrix/vector throughput against
// achievable HBM bandwidth, plus a fixed cost per kernel launch.

#include "comet/spec.hpp"
#include "comet/workload.hpp"

namespace comet {

// Achievable rates of one accelerator for one precision, in SI units.
struct ComputeRates {
    double matrix_flops_per_s = 0;     // sustained GEMM throughput
    double attention_flops_per_s = 0;  // fused attention: the 16-bit tensor rate x AttentionModel::max_fraction
    double attention_backward = 1;     // AttentionModel::backward_efficiency
    double softmax_head_dim = 0;       // AttentionModel::softmax_head_dim
    double vector_flops_per_s = 0;
    double hbm_bytes_per_s = 0;
    double launch_s = 0;
    double host_op_s = 0;            // SoftwareSpec::host_op_us
    double tile_overhead_k = 0;      // the GEMMs' tile fill in K steps (the precision's)
    double attention_fill_keys = 0;  // fused attention's fill per query row, in key positions
    // GemmModel::sms, max_split_k, min_split_k_depth (sms 0: a GEMM is one continuous stream).
    int sms = 0;
    int max_split_k = 1;
    double min_split_k_depth = 64;
    // false: the step runs as CUDA graphs and the host issues nothing per kernel (host_op_s is
    // then 0 as well, and helper kernels cost no host launch).
    bool host_issues = true;
    // The dense layers run as CUDA graphs (GraphScope::dense): only routed kernels
    // (PassCost::routed) cost host issue time.
    bool routed_only = false;
};

// Communication overlapped with computation is not free: NCCL's kernels occupy streaming
// multiprocessors and HBM bandwidth (Calculon assumes 15 % of the processor for NVLink
// collectives). The hidden part of a collective costs this fraction of its duration.
inline constexpr double overlap_contention = 0.15;
// Communication of which `overlap` (0..1) hides behind `window` of compute: what is not hidden,
// plus overlap_contention of what is.
[[nodiscard]] double exposed_comm_s(double comm, double window, double overlap) noexcept;

// Dense tensor peak for the GEMMs of this precision (fp8 and mxfp8 share the FP8 peak, fp4
// has its own).
[[nodiscard]] double matrix_peak_tflops(const NodeSpec& node, Precision precision) noexcept;
// The fraction of that peak large GEMMs reach: fp4_max_fraction for FP4, fp8_max_fraction for
// FP8 (and for FP4 without its own), else max_fraction.
[[nodiscard]] double gemm_max_fraction(const NodeSpec& node, Precision precision) noexcept;
// The GEMMs' tile fill in K steps: fp8_tile_overhead_k for FP8 and FP4 (when set), else
// tile_overhead_k.
[[nodiscard]] double gemm_tile_overhead_k(const NodeSpec& node, Precision precision) noexcept;
// Fused attention's fill per query row of a kernel model: its fill_keys, or the node's 16-bit
// GEMM tile fill when negative.
[[nodiscard]] double attention_fill_keys(const NodeSpec& node, const AttentionModel& kernel) noexcept;

// The hardware's rates for one precision (no host issue time: that is the software's).
[[nodiscard]] ComputeRates compute_rates(const NodeSpec& node, Precision precision) noexcept;
// The rates a training run sees: its precision's, the software's host issue time per framework
// op, and none when the step runs as CUDA graphs (TrainingSpec::cuda_graphs). The model's
// stages use this one.
[[nodiscard]] ComputeRates compute_rates(const NodeSpec& node, const TrainingSpec& training, const SoftwareSpec& software) noexcept;
[[nodiscard]] double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept;
// The host's time to issue a pass's kernels: host_op_s per framework kernel, a launch per helper
// kernel (PassCost::helper_kernels).
[[nodiscard]] double host_issue_s(const PassCost& cost, const ComputeRates& r) noexcept;

// How much faster each rate of `to` is than the same rate of `from` (> 1: faster), as the
// parts of a TimeSplit scale: a GEMM part with its rate and with the tile fill (each tile's
// K/s + fill, K/s >= 1), an attention part with its rate and its fill per query row, an
// element-wise part with the vector rate, a memory part with HBM, the launches with the launch
// overhead. `valid` is false when the attention model's other factors or the GEMM tiling (SMs,
// split-K) differ (then no part-wise bound holds).
struct RateSpeedups {
    double gemm = 1, attention = 1, vector = 1, hbm = 1, launch = 1;
    double host = 1;  // host issue time per kernel (SoftwareSpec::host_op_us)
    // A bound on how much faster the host issues any pass (framework kernels and helper launches).
    [[nodiscard]] double host_issue() const noexcept { return host > launch ? host : launch; }
    bool valid = false;
};
[[nodiscard]] RateSpeedups rate_speedups(const ComputeRates& from, const ComputeRates& to) noexcept;

// A sum of pass_time_s() values split by the side of each kernel's roofline and by rate, so
// that the same kernels on another node take at least
//   max(compute sides of the compute-bound kernels, their memory sides)
//   + max(memory sides of the memory-bound kernels, their compute sides) + launches,
// each part over its rate's speedup (a kernel's time is the max of its sides, and a sum of
// maxima is at least the maximum of the sums). Host issue time is not in it.
struct TimeSplit {
    // Kernels bound here by their compute side: that side by rate, and their memory side.
    double gemm = 0, attention = 0, vector = 0, compute_bound_hbm = 0;
    // Kernels bound here by HBM: that side, and their compute side by rate.
    double hbm = 0, memory_bound_gemm = 0, memory_bound_attention = 0, memory_bound_vector = 0;
    double launch = 0;
    void add(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept;
    void add(const TimeSplit& other, double weight = 1.0) noexcept;
    [[nodiscard]] double total() const noexcept { return gemm + attention + vector + hbm + launch; }  // pass_time_s() sum
    [[nodiscard]] double lower_bound(const RateSpeedups& s) const noexcept;
};

// Forward time of a layer whose forward synchronises the host with the accelerator
// (Op::host_sync, an MoE dispatch): host issue time and accelerator time add up around the
// sync instead of overlapping; each further sync (GPT-OSS's activation) drains the queue
// again. 0 when no op of the layer synchronises.
[[nodiscard]] double synced_forward_s(const LayerWork& lw, const ComputeRates& rates) noexcept;

}  // namespace comet
