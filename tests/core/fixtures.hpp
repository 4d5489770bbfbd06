#pragma once
// Shared test inputs: small configurations whose searches take milliseconds.

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
    n.hbm_reserved_gib = 2;
    n.scale_up = {8, 300, 5, 0.8};
    n.scale_out = {25, 10, 0.9};
    c.cluster.nodes = 4;
    c.training.global_batch = 64;
    c.strategy = {};
    return c;
}

}  // namespace comet::test
