#pragma once
// Shared test inputs: small configurations whose searches take milliseconds, the numbers of a
// Result by name, and the hardware inputs that monotonicity checks scale. Qt-free, so that the
// fuzz targets (tests/fuzz) use the same definitions as the Qt Test programs.

#include <array>
#include <utility>
#include <vector>

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet::test {

// A 1.3B-parameter GPT on 4 nodes of 8 A100-class GPUs (312 TFLOP/s, 80 GiB at 2039 GB/s,
// NVLink 300 GB/s in domains of 8, 25 GB/s scale-out), global batch 64, default strategy.
inline Config small_gpt_config() {
    Config c;
    c.model = {24, 2048, 16, 16, 128, 8192, false, 2048, 51200, true, true, true};
    NodeSpec& n = c.node;
    n.accelerators = 8;
    n.matrix_fp16_tflops = 312;
    n.vector_tflops = 78;
    n.hbm_capacity_gib = 80;
    n.hbm_bandwidth_gbps = 2039;
    n.scale_up = {8, 300, 5, 0.8};
    n.scale_out = {25, 10, 0.9};
    c.software.hbm_reserved_gib = 2;
    c.software.hbm_allocator_margin = 0;
    c.cluster.nodes = 4;
    c.training.global_batch = 64;
    c.strategy = {};
    return c;
}

// Every number in a Result, with its name (allocation-free, so it can run in a forked child).
inline std::array<std::pair<const char*, double>, 44> result_numbers(const Result& r) {
    return {{{"detail_a", r.detail_a},
             {"detail_b", r.detail_b},
             {"iteration_s", r.iteration_s},
             {"time.compute_s", r.time.compute_s},
             {"time.bubble_s", r.time.bubble_s},
             {"time.tp_comm_s", r.time.tp_comm_s},
             {"time.pp_comm_s", r.time.pp_comm_s},
             {"time.dp_comm_s", r.time.dp_comm_s},
             {"time.memory_s", r.time.memory_s},
             {"time.optimizer_s", r.time.optimizer_s},
             {"time.other_s", r.time.other_s},
             {"time.ep_comm_s", r.time.ep_comm_s},
             {"time.cp_comm_s", r.time.cp_comm_s},
             {"time.lookup_s", r.time.lookup_s},
             {"time.emb_comm_s", r.time.emb_comm_s},
             {"comm.tp_s", r.comm.tp_s},
             {"comm.pp_s", r.comm.pp_s},
             {"comm.dp_s", r.comm.dp_s},
             {"comm.memory_s", r.comm.memory_s},
             {"comm.ep_s", r.comm.ep_s},
             {"comm.cp_s", r.comm.cp_s},
             {"comm.emb_s", r.comm.emb_s},
             {"comm.dp_microbatch_s", r.comm.dp_microbatch_s},
             {"hbm.weights_bytes", r.hbm.weights_bytes},
             {"hbm.gradients_bytes", r.hbm.gradients_bytes},
             {"hbm.optimizer_bytes", r.hbm.optimizer_bytes},
             {"hbm.activations_bytes", r.hbm.activations_bytes},
             {"hbm.other_bytes", r.hbm.other_bytes},
             {"hbm.margin_bytes", r.hbm.margin_bytes},
             {"hbm.capacity_bytes", r.hbm.capacity_bytes},
             {"expanded.weights_bytes", r.expanded.weights_bytes},
             {"expanded.gradients_bytes", r.expanded.gradients_bytes},
             {"expanded.optimizer_bytes", r.expanded.optimizer_bytes},
             {"expanded.activations_bytes", r.expanded.activations_bytes},
             {"expanded.other_bytes", r.expanded.other_bytes},
             {"expanded.capacity_bytes", r.expanded.capacity_bytes},
             {"parameters", r.parameters},
             {"active_parameters", r.active_parameters},
             {"model_flops", r.model_flops},
             {"hardware_flops", r.hardware_flops},
             {"tokens_per_s", r.tokens_per_s},
             {"model_tflops_per_gpu", r.model_tflops_per_gpu},
             {"hardware_tflops_per_gpu", r.hardware_tflops_per_gpu},
             {"mfu", r.mfu}}};
}

// A hardware input that monotonicity checks scale. `more` says which way gives the
// configuration more of the resource: up for throughput, bandwidth, efficiency and capacity;
// down for latency, per-kernel overhead and reserved memory. `max` caps the scaled value
// (efficiencies are fractions of at most 1).
struct ScaledInput {
    enum class Kind { speed, latency, capacity };
    const char* name;
    double& (*ref)(Config&);
    Kind kind;
    bool more_is_up;
    double max;
};

// Every hardware input of NodeSpec for which more of the resource must never slow a fixed
// configuration or make it infeasible. Not here on purpose: scale_up.domain_size, accelerators
// and cluster.nodes change where groups are placed (and how many ranks exist), so they are not
// monotone resources; power_kw does not enter evaluate().
inline const std::vector<ScaledInput>& monotone_inputs() {
    using K = ScaledInput::Kind;
    static const std::vector<ScaledInput> inputs = {
        {"node.matrix_fp16_tflops", [](Config& c) -> double& { return c.node.matrix_fp16_tflops; }, K::speed, true, 1e6},
        {"node.matrix_fp8_tflops", [](Config& c) -> double& { return c.node.matrix_fp8_tflops; }, K::speed, true, 1e7},
        {"node.vector_tflops", [](Config& c) -> double& { return c.node.vector_tflops; }, K::speed, true, 1e6},
        {"node.gemm.max_fraction", [](Config& c) -> double& { return c.node.gemm.max_fraction; }, K::speed, true, 1},
        {"node.hbm_bandwidth_gbps", [](Config& c) -> double& { return c.node.hbm_bandwidth_gbps; }, K::speed, true, 1e7},
        {"node.hbm_efficiency", [](Config& c) -> double& { return c.node.hbm_efficiency; }, K::speed, true, 1},
        {"node.expanded.bandwidth_gbps", [](Config& c) -> double& { return c.node.expanded.bandwidth_gbps; }, K::speed, true, 1e7},
        {"node.scale_up.bandwidth_gbps", [](Config& c) -> double& { return c.node.scale_up.bandwidth_gbps; }, K::speed, true, 1e7},
        {"node.scale_up.efficiency", [](Config& c) -> double& { return c.node.scale_up.efficiency; }, K::speed, true, 1},
        {"node.scale_out.bandwidth_gbps", [](Config& c) -> double& { return c.node.scale_out.bandwidth_gbps; }, K::speed, true, 1e7},
        {"node.scale_out.efficiency", [](Config& c) -> double& { return c.node.scale_out.efficiency; }, K::speed, true, 1},
        {"node.gemm.tile_overhead_k", [](Config& c) -> double& { return c.node.gemm.tile_overhead_k; }, K::latency, false, 1e6},
        {"node.gemm.launch_overhead_us", [](Config& c) -> double& { return c.node.gemm.launch_overhead_us; }, K::latency, false, 1e4},
        {"node.expanded.latency_us", [](Config& c) -> double& { return c.node.expanded.latency_us; }, K::latency, false, 1e6},
        {"node.scale_up.latency_us", [](Config& c) -> double& { return c.node.scale_up.latency_us; }, K::latency, false, 1e6},
        {"node.scale_out.latency_us", [](Config& c) -> double& { return c.node.scale_out.latency_us; }, K::latency, false, 1e6},
        {"software.host_op_us", [](Config& c) -> double& { return c.software.host_op_us; }, K::latency, false, 1e4},
        {"node.hbm_capacity_gib", [](Config& c) -> double& { return c.node.hbm_capacity_gib; }, K::capacity, true, 1e6},
        {"software.hbm_reserved_gib", [](Config& c) -> double& { return c.software.hbm_reserved_gib; }, K::capacity, false, 1e6},
        {"node.expanded.capacity_gib", [](Config& c) -> double& { return c.node.expanded.capacity_gib; }, K::capacity, true, 1e9},
    };
    return inputs;
}

}  // namespace comet::test
