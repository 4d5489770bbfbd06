// Invariants of evaluate() on a large deterministic random sample of configurations (issue 7):
// no NaN, infinity or negative time or memory; the breakdown adds up; an infeasible result always
// carries a reason (and an explanation); a feasible one fits every memory tier; and more
// bandwidth, FLOP/s or capacity (or less latency) never makes a configuration slower or
// infeasible. test_model.cpp checks the same kinds of property on hand-built grids; this test
// draws models, nodes, clusters, training setups and strategies at random, valid ones and
// deliberately broken ones, so that it also reaches corners nobody thought of.
//
// Determinism: configuration i is drawn from its own generator seeded with (seed, i), and the
// sample is evaluated with TBB in chunks whose counters are summed, so the counts and the first
// failures (ordered by index) are the same for any thread count. COMET_INVARIANT_SAMPLES
// overrides the sample size (e.g. for a longer run: COMET_INVARIANT_SAMPLES=5000000).

// TBB before Qt: Qt's `emit` macro breaks oneTBB's profiling.h.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <QByteArray>
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "comet/check.hpp"
#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/result.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/spec.hpp"
#include "comet/validation.hpp"
#include "comet/units.hpp"
#include "fixtures.hpp"

using namespace comet;

namespace {

constexpr std::uint64_t sample_seed = 0xC0DE'7C0FFEE5ULL;
constexpr std::uint64_t perturb_seed = 0x5CA1'AB1E'0DDBA11ULL;
// 500000 configurations (and about 5.4 million perturbed ones) take about 5 s of CPU in a
// RelWithDebInfo build; sanitizer builds are 20-50 times slower, so they draw fewer.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COMET_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define COMET_SANITIZED 1
#endif
#endif
#ifdef COMET_SANITIZED
constexpr long long default_samples = 20000;
constexpr int strategies_per_scenario = 8;  // fasterHardwareNeverSlowsShippedConfigurations
#else
constexpr long long default_samples = 500000;
constexpr int strategies_per_scenario = 30;
#endif
constexpr long long coverage_samples = 100000;  // from this size on, every outcome must be reached
constexpr double rel_breakdown = 1e-9;          // breakdown total vs iteration time
constexpr double rel_monotone = 1e-12;          // more of a resource: at most this much slower (rounding)

long long sample_size() {
    if (const char* env = std::getenv("COMET_INVARIANT_SAMPLES"); env && *env) {
        const long long n = std::atoll(env);
        if (n > 0) return n;
    }
    return default_samples;
}

// splitmix64: tiny state, so that every configuration gets its own generator cheaply.
struct Rng {
    std::uint64_t state;
    Rng(std::uint64_t seed, std::uint64_t index) : state(seed ^ (index * 0xD1B54A32D192ED03ULL)) { next(); }
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    bool chance(double p) { return unit() < p; }
    long long between(long long lo, long long hi) { return lo + static_cast<long long>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
    double log_uniform(double lo, double hi) { return lo * std::pow(hi / lo, unit()); }
    template <class T>
    T pick(std::initializer_list<T> v) {
        return *(v.begin() + next() % v.size());
    }
};

// A random divisor of n that is at most cap (1 always qualifies).
long long random_divisor(Rng& r, long long n, long long cap) {
    std::vector<long long> divisors;
    for (long long d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            if (d <= cap) divisors.push_back(d);
            if (n / d != d && n / d <= cap) divisors.push_back(n / d);
        }
    std::sort(divisors.begin(), divisors.end());
    return divisors[static_cast<std::size_t>(r.next() % divisors.size())];
}

ModelSpec random_model(Rng& r) {
    ModelSpec m;
    const int family = static_cast<int>(r.between(0, 2));  // 0 GPT, 1 Llama-style GQA, 2 odd shapes
    m.heads = r.pick({1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 56, 64, 96, 128});
    m.head_dim = r.pick({16, 32, 64, 80, 96, 128, 256});
    m.hidden = m.heads * m.head_dim;
    if (family == 2 && r.chance(0.5)) m.hidden = static_cast<int>(r.between(1, 12288));  // head_dim independent
    m.kv_heads = family == 0 ? m.heads : static_cast<int>(random_divisor(r, m.heads, m.heads));
    m.gated_mlp = family == 1 || (family == 2 && r.chance(0.5));
    m.ffn_hidden = family == 0 ? 4 * m.hidden : family == 1 ? (m.hidden * 8 / 3 + 255) / 256 * 256 : static_cast<int>(r.between(1, 40000));
    m.layers = family == 2 ? static_cast<int>(r.between(1, 200)) : r.pick({2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 126, 128});
    m.seq_len =
        r.chance(0.9) ? r.pick({128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 131072}) : static_cast<int>(r.between(1, 20000));
    m.vocab = r.chance(0.8) ? r.pick({32000, 50257, 51200, 65536, 128256, 152064, 256000}) : static_cast<int>(r.between(1, 300000));
    m.tied_embeddings = family == 1 ? r.chance(0.2) : r.chance(0.7);
    m.bias = family == 0 || (family == 2 && r.chance(0.5));
    m.learned_position_embeddings = family == 0 || (family == 2 && r.chance(0.3));
    if (r.chance(0.3)) {  // a mixture of experts
        m.experts = r.pick({2, 4, 8, 8, 16, 64, 160, 256});
        m.experts_per_token = static_cast<int>(std::min<long long>(m.experts, r.pick({1, 2, 2, 4, 6, 8})));
        m.expert_ffn_hidden = r.chance(0.8) ? r.pick({512, 1024, 1408, 2048, 4096, 14336}) : static_cast<int>(r.between(1, 20000));
        m.shared_experts = r.pick({0, 0, 1, 2});
        m.dense_layers = static_cast<int>(std::min<long long>(m.layers, r.pick({0, 0, 1, 3})));
        m.moe_layer_interval = r.pick({1, 1, 2});
        m.capacity_factor = r.pick({1.0, 1.0, 1.25, 2.0});
    }
    return m;
}

// Every NodeSpec field, kept at most a quarter of its allowed maximum so that scaling a resource
// by up to 4 stays in range.
NodeSpec random_node(Rng& r, SoftwareSpec& sw) {
    NodeSpec n;
    n.accelerators = r.pick({1, 2, 4, 8, 8, 8, 16, 72});
    n.matrix_fp16_tflops = r.log_uniform(20, 5000);
    n.matrix_fp8_tflops = r.chance(0.5) ? 0.0 : n.matrix_fp16_tflops * r.uniform(1, 2.5);
    n.matrix_fp4_tflops = r.chance(0.5) ? 0.0 : n.matrix_fp16_tflops * r.uniform(1, 7);
    n.gemm.fp4_max_fraction = r.chance(0.5) ? 0.0 : r.uniform(0.2, 1.0);
    n.vector_tflops = r.log_uniform(5, 500);
    n.gemm.max_fraction = r.uniform(0.3, 1.0);
    n.gemm.tile_overhead_k = r.chance(0.1) ? 0.0 : r.uniform(0, 512);
    n.gemm.launch_overhead_us = r.chance(0.1) ? 0.0 : r.uniform(0, 20);
    n.hbm_capacity_gib = r.log_uniform(8, 512);
    n.hbm_bandwidth_gbps = r.log_uniform(300, 16000);
    n.hbm_efficiency = r.uniform(0.4, 1.0);
    sw.hbm_reserved_gib = r.chance(0.3) ? 0.0 : r.uniform(0, 0.2 * n.hbm_capacity_gib);  // the software's, drawn here
    ExpandedMemory& x = n.expanded;
    x.attach = r.pick({ExpandedAttach::per_accelerator, ExpandedAttach::per_node, ExpandedAttach::pooled});
    x.pool_nodes = static_cast<int>(r.between(1, 32));
    x.latency_us = r.chance(0.1) ? 0.0 : r.uniform(0, 10);
    if (r.chance(0.5)) {
        x.capacity_gib = r.log_uniform(8, 16384);
        x.bandwidth_gbps = r.log_uniform(5, 4000);
    } else {
        x.capacity_gib = 0;  // no expanded tier; a bandwidth without capacity is allowed
        x.bandwidth_gbps = r.chance(0.5) ? 0.0 : r.log_uniform(5, 4000);
    }
    ScaleUpNetwork& up = n.scale_up;
    up.domain_size = r.chance(0.7) ? n.accelerators : r.pick({1, 2, 4, 8, 16, 32, 64, 72, 256});
    up.bandwidth_gbps = r.log_uniform(10, 2000);
    up.latency_us = r.chance(0.1) ? 0.0 : r.uniform(0, 10);
    up.efficiency = r.uniform(0.4, 1.0);
    n.scale_out.bandwidth_gbps = r.log_uniform(1, 200);
    n.scale_out.latency_us = r.chance(0.1) ? 0.0 : r.uniform(0, 30);
    n.scale_out.efficiency = r.uniform(0.4, 1.0);
    n.power_kw = r.chance(0.3) ? 0.0 : r.uniform(0.5, 15);
    return n;
}

// A strategy shaped to fit the model and cluster (tp divides the heads, KV heads and MLP width,
// pp*interleave divides the layers, the batch splits): feasible unless memory or a detail
// (sequence parallelism, fp8, offload without a tier) says otherwise.
void shaped_strategy(Rng& r, Config& c) {
    Strategy& s = c.strategy;
    const ModelSpec& m = c.model;
    const long long total = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
    const long long tp_room = std::gcd(std::gcd(m.heads, m.kv_heads), m.ffn_hidden);
    s.tp = static_cast<int>(random_divisor(r, tp_room, std::min<long long>(total, 64)));
    s.pp = static_cast<int>(random_divisor(r, m.layers, total / s.tp));
    s.interleave = s.pp > 1 && r.chance(0.3) ? static_cast<int>(random_divisor(r, m.layers / s.pp, 8)) : 1;
    const long long dp_max = total / (static_cast<long long>(s.tp) * s.pp);
    s.dp = static_cast<int>(r.chance(0.6) ? dp_max : r.between(1, dp_max));
    s.microbatch = r.pick({1, 1, 1, 2, 4, 8});
    // With interleaving the microbatch count must be a multiple of pp; now and then it is not.
    const long long microbatches = s.interleave > 1 && r.chance(0.9) ? s.pp * r.between(1, 8) : r.between(1, 64);
    c.training.global_batch = static_cast<long long>(s.dp) * s.microbatch * microbatches;
}

// Any strategy at all: mostly structurally infeasible.
void random_strategy(Rng& r, Config& c) {
    Strategy& s = c.strategy;
    s.tp = static_cast<int>(r.between(1, 16));
    s.pp = static_cast<int>(r.between(1, 16));
    s.dp = static_cast<int>(r.between(1, 64));
    s.microbatch = static_cast<int>(r.between(1, 16));
    s.interleave = static_cast<int>(r.between(1, 4));
    c.training.global_batch = r.between(1, 4096);
}

// Breaks one input: out of range, not finite, or against a cross-field rule.
void break_one_field(Rng& r, Config& c) {
    const double bad = r.pick({std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), -1.0, 0.0, -0.0, 1e300});
    const int ibad = r.pick({0, -1, -7, std::numeric_limits<int>::min()});
    const auto& inputs = test::monotone_inputs();
    switch (r.between(0, 9)) {
        case 0:
            inputs[static_cast<std::size_t>(r.next() % inputs.size())].ref(c) = bad;
            break;
        case 1:
            c.node.vector_tflops = bad;
            break;
        case 2:
            c.model.heads = ibad;
            break;
        case 3:
            c.model.layers = r.chance(0.5) ? ibad : 100001;
            break;
        case 4:
            c.strategy.zero_stage = r.pick({-1, 4, 7});
            break;
        case 5:
            c.strategy.tp = ibad;
            break;
        case 6:
            c.training.global_batch = r.pick<long long>({0, -64, 2000000000});
            break;
        case 7:
            c.model.kv_heads = c.model.heads + 1;
            break;  // must divide heads
        case 8:
            c.software.hbm_reserved_gib = c.node.hbm_capacity_gib * r.uniform(1, 2);
            break;  // must be below capacity
        default:
            c.node.expanded.capacity_gib = 64;  // a tier needs a bandwidth
            c.node.expanded.bandwidth_gbps = 0;
            break;
    }
}

// A DLRM (the second workload): tables of every size and pooling, a dot or DCNv2 interaction,
// any sharding and placement of the rows; now and then a broken field.
void random_dlrm(Rng& r, Config& c) {
    c.workload = Workload::dlrm;
    DlrmSpec& d = c.dlrm;
    d.table_groups = static_cast<int>(r.between(1, 6));
    d.interaction = r.chance(0.5) ? DlrmInteraction::dot : DlrmInteraction::dcn;
    const int dim = r.pick({16, 32, 64, 96, 128, 256});
    for (int g = 0; g < d.table_groups; ++g) {
        EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        t.count = r.pick({1, 1, 2, 4, 8, 26, 100});
        t.rows = std::round(r.log_uniform(3, 4e9));
        t.dim = d.interaction == DlrmInteraction::dot ? dim : r.pick({8, 16, 32, 64, 128, 256});
        t.pooling = r.chance(0.7) ? r.pick({1.0, 1.0, 2.0, 10.0, 20.0, 100.0}) : r.uniform(0.1, 200);
    }
    d.dense_features = r.chance(0.9) ? 13 : static_cast<int>(r.between(0, 1000));
    d.bottom_layers = d.dense_features > 0 ? static_cast<int>(r.between(1, 4)) : 0;
    for (int i = 0; i < d.bottom_layers; ++i) d.bottom_mlp[static_cast<std::size_t>(i)] = r.pick({64, 128, 256, 512, 1024});
    if (d.interaction == DlrmInteraction::dot) {
        if (d.bottom_layers > 0)
            d.bottom_mlp[static_cast<std::size_t>(d.bottom_layers - 1)] = dim;
        else
            d.dense_features = 0;
    }
    d.top_layers = static_cast<int>(r.between(1, 5));
    for (int i = 0; i < d.top_layers; ++i) d.top_mlp[static_cast<std::size_t>(i)] = r.pick({256, 512, 1024, 2048});
    d.top_mlp[static_cast<std::size_t>(d.top_layers - 1)] = 1;
    d.cross_layers = static_cast<int>(r.between(0, 4));
    d.cross_rank = r.pick({0, 64, 512});
    d.embedding_dtype = r.pick({EmbeddingDtype::fp32, EmbeddingDtype::fp16, EmbeddingDtype::bf16});
    d.table_optimizer =
        r.pick({EmbeddingOptimizer::sgd, EmbeddingOptimizer::rowwise_adagrad, EmbeddingOptimizer::adagrad, EmbeddingOptimizer::adam});
    d.unique_rows_fraction = r.chance(0.3) ? 1.0 : r.uniform(0.01, 1.0);
    Strategy& s = c.strategy;
    const long long total = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
    s.dp = static_cast<int>(r.chance(0.7) ? total : r.between(1, std::min<long long>(total, 64)));
    if (r.chance(0.05)) s.dp = static_cast<int>(total + r.between(1, 8));  // more ranks than the cluster has
    c.training.global_batch = static_cast<long long>(s.dp) * r.pick({16, 64, 256, 1024, 4096});
    if (r.chance(0.05)) c.training.global_batch += r.between(1, s.dp);  // does not split
    s.emb_sharding = r.pick({EmbeddingSharding::table_wise, EmbeddingSharding::row_wise, EmbeddingSharding::column_wise});
    const bool tier = c.node.expanded.capacity_gib > 0;
    s.emb_placement =
        r.chance(tier ? 0.6 : 0.05) ? r.pick({EmbeddingPlacement::expanded, EmbeddingPlacement::cached}) : EmbeddingPlacement::hbm;
    s.emb_cache_fraction = r.uniform(0.01, 0.5);
    s.emb_cache_hit_rate = r.chance(0.1) ? r.pick({0.0, 1.0}) : r.uniform(0, 1);
    s.emb_state =
        r.chance(tier ? 0.3 : 0.02) ? r.pick({EmbeddingStateTier::hbm, EmbeddingStateTier::expanded}) : EmbeddingStateTier::with_rows;
    s.dp_overlap = r.chance(0.8);
    if (r.chance(0.05)) {
        switch (r.between(0, 5)) {
            case 0:
                d.tables[0].rows = r.pick({0.0, -1.0, 1.5, std::numeric_limits<double>::quiet_NaN(), 1e300});
                break;
            case 1:
                d.tables[0].dim = r.pick({0, -1, 70000});
                break;
            case 2:
                d.tables[static_cast<std::size_t>(d.table_groups - 1)].pooling =
                    r.pick({0.0, -2.0, std::numeric_limits<double>::infinity()});
                break;
            case 3:
                s.tp = 2;
                break;
            case 4:
                d.table_groups = r.pick({0, 33, -1});
                break;
            default:
                d.unique_rows_fraction = r.pick({0.0, 1.5, std::numeric_limits<double>::quiet_NaN()});
                break;
        }
    }
}

Config random_config(std::uint64_t index) {
    Rng r(sample_seed, index);
    Config c;
    c.model = random_model(r);
    c.node = random_node(r, c.software);
    // The software's host issue time per op: none, or up to about four times the measured
    // 20.4 us of eager PyTorch (host-bound passes).
    c.software.host_op_us = r.chance(0.4) ? 0.0 : r.uniform(0, 90);
    c.cluster.nodes = r.chance(0.8) ? r.pick({1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) : static_cast<int>(r.between(1, 1000));
    TrainingSpec& t = c.training;
    t.precision = r.pick({Precision::fp16, Precision::bf16, Precision::bf16, Precision::fp8, Precision::mxfp8, Precision::fp4});
    t.optimizer = r.pick({Optimizer::adam, Optimizer::adam, Optimizer::sgd});
    t.grad_reduce = r.pick({GradDtype::fp32, GradDtype::bf16});
    t.attention = r.pick({AttentionKernel::unfused, AttentionKernel::fused});
    t.dropout = r.chance(0.5);
    if (r.chance(0.15)) {
        random_dlrm(r, c);
        return c;
    }
    if (r.chance(0.85))
        shaped_strategy(r, c);
    else
        random_strategy(r, c);
    Strategy& s = c.strategy;
    s.recompute = r.pick({Recompute::none, Recompute::selective, Recompute::full});
    s.sequence_parallel = r.chance(0.5);
    s.zero_stage = static_cast<int>(r.between(0, 3));
    const double offload = c.node.expanded.capacity_gib > 0 ? 0.35 : 0.03;
    s.offload_optimizer = r.chance(offload);
    s.offload_weights = r.chance(offload);
    s.offload_activations = r.chance(offload);
    s.dp_overlap = r.chance(0.7);
    s.tp_overlap = r.chance(0.4);
    s.pp_scatter_gather = r.chance(0.8);
    // Context and expert parallelism, hierarchical sharding: taken from data parallelism so
    // the cluster still fits, sometimes not dividing what they must.
    if (r.chance(0.25)) {
        const int cp = r.pick({2, 2, 4, 8, 3});
        if (s.dp % cp == 0 || r.chance(0.2)) {
            s.cp = cp;
            s.dp = std::max(1, s.dp / cp);
            c.training.global_batch = std::max<long long>(1, c.training.global_batch / cp);
        }
    }
    if (c.model.is_moe() ? r.chance(0.6) : r.chance(0.01)) s.ep = r.pick({2, 4, 8, 8, 16, 3});
    if (r.chance(c.model.is_moe() ? 0.2 : 0.005)) s.etp = r.pick({2, 4, 3});
    if (r.chance(0.5)) s.ep_overlap = r.uniform(0, 1);
    if (r.chance(0.2)) s.zero_shard = r.pick({1, 2, 4, 8, 3});
    if (r.chance(0.05)) break_one_field(r, c);
    return c;
}

QByteArray num(double v) { return QByteArray::number(v, 'g', 17); }

QByteArray describe_dlrm(const Config& c) {
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    QByteArray out = "dlrm groups " + QByteArray::number(d.table_groups) + ":";
    for (int g = 0; g < d.table_groups && g < DlrmSpec::max_table_groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        out += " " + QByteArray::number(t.count) + "x" + num(t.rows) + "x" + QByteArray::number(t.dim) + "p" + num(t.pooling);
    }
    out += " dense " + QByteArray::number(d.dense_features) + " bottom";
    for (int i = 0; i < d.bottom_layers && i < DlrmSpec::max_mlp_layers; ++i)
        out += " " + QByteArray::number(d.bottom_mlp[static_cast<std::size_t>(i)]);
    out += " top";
    for (int i = 0; i < d.top_layers && i < DlrmSpec::max_mlp_layers; ++i)
        out += " " + QByteArray::number(d.top_mlp[static_cast<std::size_t>(i)]);
    out += " inter " + QByteArray::number(static_cast<int>(d.interaction)) + " cross " + QByteArray::number(d.cross_layers) + "r" +
           QByteArray::number(d.cross_rank) + " dtype " + QByteArray::number(static_cast<int>(d.embedding_dtype)) + " opt " +
           QByteArray::number(static_cast<int>(d.table_optimizer)) + " unique " + num(d.unique_rows_fraction) + "; dp " +
           QByteArray::number(s.dp) + " batch " + QByteArray::number(c.training.global_batch) + " shard " +
           QByteArray::number(static_cast<int>(s.emb_sharding)) + " place " + QByteArray::number(static_cast<int>(s.emb_placement)) +
           " cache " + num(s.emb_cache_fraction) + "/" + num(s.emb_cache_hit_rate) + " state " +
           QByteArray::number(static_cast<int>(s.emb_state)) + " ovl " + QByteArray::number(s.dp_overlap) + "; ";
    return out;
}

QByteArray describe(const Config& c) {
    const ModelSpec& m = c.model;
    const NodeSpec& n = c.node;
    char buf[640];
    std::snprintf(buf, sizeof buf,
                  "model L%d h%d a%d kv%d d%d f%d%s s%d V%d; node %d acc, %.6g/%.6g/%.6g/%.6g TFLOP/s, gemm %.4g/%.4g/%.4g, "
                  "HBM %.6g GiB (%.4g reserved) %.6g GB/s x%.4g, expanded %.6g GiB %.6g GB/s %.4g us attach %d pool %d, "
                  "up %d x %.6g GB/s %.4g us x%.4g, out %.6g GB/s %.4g us x%.4g; %d nodes; batch %lld prec %d opt %d "
                  "grad %d attn %d dropout %d; ",
                  m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn_hidden, m.gated_mlp ? " gated" : "", m.seq_len, m.vocab,
                  n.accelerators, n.matrix_fp16_tflops, n.matrix_fp8_tflops, n.matrix_fp4_tflops, n.vector_tflops, n.gemm.max_fraction,
                  n.gemm.tile_overhead_k, n.gemm.launch_overhead_us, n.hbm_capacity_gib, c.software.hbm_reserved_gib, n.hbm_bandwidth_gbps,
                  n.hbm_efficiency, n.expanded.capacity_gib, n.expanded.bandwidth_gbps, n.expanded.latency_us,
                  static_cast<int>(n.expanded.attach), n.expanded.pool_nodes, n.scale_up.domain_size, n.scale_up.bandwidth_gbps,
                  n.scale_up.latency_us, n.scale_up.efficiency, n.scale_out.bandwidth_gbps, n.scale_out.latency_us, n.scale_out.efficiency,
                  c.cluster.nodes, c.training.global_batch, static_cast<int>(c.training.precision), static_cast<int>(c.training.optimizer),
                  static_cast<int>(c.training.grad_reduce), static_cast<int>(c.training.attention), c.training.dropout ? 1 : 0);
    const Strategy& s = c.strategy;
    QByteArray moe;
    if (m.is_moe())
        moe = "moe E" + QByteArray::number(m.experts) + " k" + QByteArray::number(m.experts_per_token) + " fe" +
              QByteArray::number(m.expert_ffn_hidden) + " shared" + QByteArray::number(m.shared_experts) + " dense" +
              QByteArray::number(m.dense_layers) + " every" + QByteArray::number(m.moe_layer_interval) + " cf" +
              QByteArray::number(m.capacity_factor) + "; ";
    if (c.workload == Workload::dlrm) moe = describe_dlrm(c);
    return QByteArray(buf) + moe + QByteArray::fromStdString(format_strategy(s)) + " shard" + QByteArray::number(s.zero_shard) + " sp" +
           QByteArray::number(s.sequence_parallel) + " off" + QByteArray::number(s.offload_optimizer) +
           QByteArray::number(s.offload_weights) + QByteArray::number(s.offload_activations) + " ovl" + QByteArray::number(s.dp_overlap) +
           QByteArray::number(s.tp_overlap) + " sg" + QByteArray::number(s.pp_scatter_gather);
}

// Results that carry an iteration time: feasible ones, and those that only overflow a memory tier.
bool timed(const Result& r) {
    return r.reason == Infeasible::none || r.reason == Infeasible::hbm_capacity || r.reason == Infeasible::expanded_capacity;
}

// What a parallel pass over the sample collects; chunks merge their own into the total.
struct Tally {
    static constexpr int max_kept = 8;
    long long configs = 0, feasible = 0, timed = 0, invalid = 0, checked = 0, skipped = 0;
    long long by_reason[static_cast<int>(Infeasible::count_)] = {};
    std::vector<std::pair<long long, QByteArray>> failures;  // (index, message), the first few by index
    long long failure_count = 0;

    void fail(long long index, QByteArray message) {
        ++failure_count;
        failures.emplace_back(index, std::move(message));
        std::sort(failures.begin(), failures.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        if (failures.size() > max_kept) failures.pop_back();
    }
    void merge(const Tally& o) {
        configs += o.configs;
        feasible += o.feasible;
        timed += o.timed;
        invalid += o.invalid;
        checked += o.checked;
        skipped += o.skipped;
        for (int i = 0; i < static_cast<int>(Infeasible::count_); ++i) by_reason[i] += o.by_reason[i];
        failure_count += o.failure_count;
        for (const auto& f : o.failures) {
            failures.push_back(f);
        }
        std::sort(failures.begin(), failures.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        if (failures.size() > max_kept) failures.resize(max_kept);
    }
    [[nodiscard]] QByteArray report() const {
        QByteArray out = QByteArray::number(failure_count) + " failures; first by index:";
        for (const auto& [index, message] : failures) out += "\n  #" + QByteArray::number(index) + ": " + message;
        return out;
    }
};

template <class Body>
Tally over_sample(long long n, Body body) {
    Tally total;
    std::mutex m;
    tbb::parallel_for(tbb::blocked_range<long long>(0, n, 2048), [&](const tbb::blocked_range<long long>& range) {
        Tally local;
        for (long long i = range.begin(); i != range.end(); ++i) body(i, local);
        const std::lock_guard<std::mutex> lock(m);
        total.merge(local);
    });
    return total;
}

// Checks one result; returns the first problem or an empty string.
QByteArray result_problem(const Config& c, const Result& r) {
    for (const auto& [name, v] : test::result_numbers(r))
        if (!std::isfinite(v) || v < 0) return QByteArray(name) + " = " + num(v);
    if (static_cast<int>(r.reason) >= static_cast<int>(Infeasible::count_)) return "reason out of range";
    if (r.feasible != (r.reason == Infeasible::none))
        return "feasible = " + QByteArray::number(r.feasible) + " with reason " +
               QByteArray::fromStdString(std::string(to_string(r.reason)));
    if (!r.feasible && explain(r).empty())
        return "no explanation for reason " + QByteArray::fromStdString(std::string(to_string(r.reason)));
    const bool invalid = first_invalid_field(c) >= 0;
    if (invalid != (r.reason == Infeasible::invalid_input)) return "first_invalid_field and reason invalid_input disagree";
    if (invalid && check_config(c).empty()) return "invalid input but check_config() has no message";
    if (!timed(r)) {
        // Structural problems stop before any estimate.
        if (r.iteration_s != 0.0 || r.time.total() != 0.0) return "an estimate for a structurally infeasible configuration";
        return {};
    }
    if (!(r.iteration_s > 0)) return "iteration_s = " + num(r.iteration_s);
    if (std::abs(r.time.total() - r.iteration_s) > rel_breakdown * r.iteration_s)
        return "breakdown total " + num(r.time.total()) + " != iteration_s " + num(r.iteration_s);
    const double tokens = static_cast<double>(c.training.global_batch) * (c.workload == Workload::dlrm ? 1.0 : c.model.seq_len);
    if (std::abs(r.tokens_per_s * r.iteration_s - tokens) > rel_breakdown * tokens) return "tokens_per_s * iteration_s != tokens";
    if (r.hbm.capacity_bytes != units::gib_to_bytes(c.node.hbm_capacity_gib)) return "hbm.capacity_bytes is not the node's HBM";
    if (r.feasible) {
        if (r.hbm.used_bytes() > r.hbm.capacity_bytes)
            return "feasible, but HBM holds " + num(r.hbm.used_bytes()) + " of " + num(r.hbm.capacity_bytes) + " B";
        if (r.expanded.used_bytes() > r.expanded.capacity_bytes)
            return "feasible, but the expanded tier holds " + num(r.expanded.used_bytes()) + " of " + num(r.expanded.capacity_bytes) + " B";
    } else if (!(r.detail_a > r.detail_b)) {
        return "over capacity, but needs " + num(r.detail_a) + " B of " + num(r.detail_b);
    }
    return {};
}

// ---- Faster hardware never slows a shipped configuration (issue 37, "Hardware from
// measurements", point 3). The shipped scenarios and validation rows run on software presets
// with a host issue time per op (20.4 us eager), so some passes are bound by it. Each
// perturbation gives one resource more: x2 a peak or a bandwidth, x1/2 a latency or a per-kernel
// overhead.
constexpr double rel_law = 1e-9;

struct Perturbation {
    const char* name;
    double& (*ref)(Config&);
    double factor;
    double floor = 0;  // the resource's best value (a non-blocking spine: oversubscription 1)
};

const std::vector<Perturbation>& hardware_perturbations() {
    static const std::vector<Perturbation> p = {
        {"matrix_fp16_tflops x2", [](Config& c) -> double& { return c.node.matrix_fp16_tflops; }, 2.0},
        {"matrix_fp8_tflops x2", [](Config& c) -> double& { return c.node.matrix_fp8_tflops; }, 2.0},
        {"matrix_fp4_tflops x2", [](Config& c) -> double& { return c.node.matrix_fp4_tflops; }, 2.0},
        {"vector_tflops x2", [](Config& c) -> double& { return c.node.vector_tflops; }, 2.0},
        {"hbm_bandwidth_gbps x2", [](Config& c) -> double& { return c.node.hbm_bandwidth_gbps; }, 2.0},
        {"scale_up.bandwidth_gbps x2", [](Config& c) -> double& { return c.node.scale_up.bandwidth_gbps; }, 2.0},
        {"scale_out.bandwidth_gbps x2", [](Config& c) -> double& { return c.node.scale_out.bandwidth_gbps; }, 2.0},
        {"expanded.bandwidth_gbps x2", [](Config& c) -> double& { return c.node.expanded.bandwidth_gbps; }, 2.0},
        {"scale_up.latency_us x1/2", [](Config& c) -> double& { return c.node.scale_up.latency_us; }, 0.5},
        {"scale_out.latency_us x1/2", [](Config& c) -> double& { return c.node.scale_out.latency_us; }, 0.5},
        {"scale_out.spine_latency_us x1/2", [](Config& c) -> double& { return c.node.scale_out.spine_latency_us; }, 0.5},
        {"scale_out.oversubscription x1/2 (toward non-blocking)", [](Config& c) -> double& { return c.node.scale_out.oversubscription; },
         0.5, 1.0},
        {"expanded.latency_us x1/2", [](Config& c) -> double& { return c.node.expanded.latency_us; }, 0.5},
        {"host_op_us x1/2", [](Config& c) -> double& { return c.software.host_op_us; }, 0.5},
        {"gemm.launch_overhead_us x1/2", [](Config& c) -> double& { return c.node.gemm.launch_overhead_us; }, 0.5},
        {"scale_up.switch_allreduce_fraction x1.5", [](Config& c) -> double& { return c.node.scale_up.switch_allreduce_fraction; }, 1.5},
    };
    return p;
}

// `c` with one resource perturbed; false when the resource is absent (0: no FP8 unit, no tier,
// no spine, no host time) or already at its best (a non-blocking spine), where scaling changes
// nothing.
bool perturbed(const Config& c, const Perturbation& p, Config& out) {
    out = c;
    double& v = p.ref(out);
    if (!(v > p.floor)) return false;
    v = std::max(p.floor, v * p.factor);
    return true;
}

std::filesystem::path source_path(const char* relative) { return std::filesystem::path(COMET_SOURCE_DIR) / relative; }

// The two reproductions of issue 37: GPT 1.7B on one DGX H100 (tp8, sequence parallelism, TP
// overlap, global batch 64, fused attention) and Qwen3-30B-A3B on two in FP8 (tp4 pp2 dp2 mb8 ep8
// v8, ZeRO-1, TP overlap, EP overlap 0.9, global batch 1024), both host-bound.
Config preset_config(const char* model, const char* node, int nodes) {
    const auto m = load_model_preset(source_path("presets/models") / (std::string(model) + ".json"));
    const auto n = load_node_preset(source_path("presets/nodes") / (std::string(node) + ".json"));
    if (!m.ok() || !n.ok()) qFatal("%s%s", m.error_text().c_str(), n.error_text().c_str());
    Config c;
    c.model = m.value->model;
    c.node = n.value->node;
    c.cluster.nodes = nodes;
    c.training.attention = AttentionKernel::fused;
    c.training.dropout = false;
    // The issue's reproductions ran with the 45 us per kernel the node presets then held.
    c.software = legacy_software(45);
    return c;
}

Config gpt_1p7b_host_bound() {
    Config c = preset_config("gpt-1.7b", "dgx-h100", 1);
    c.training.global_batch = 64;
    c.training.precision = Precision::bf16;
    c.strategy.tp = 8;
    c.strategy.sequence_parallel = true;
    c.strategy.tp_overlap = true;
    return c;
}

Config qwen3_30b_host_bound() {
    Config c = preset_config("qwen3-30b-a3b", "dgx-h100", 2);
    c.training.global_batch = 1024;
    c.training.precision = Precision::fp8;
    Strategy& s = c.strategy;
    s.tp = 4;
    s.pp = 2;
    s.dp = 2;
    s.microbatch = 8;
    s.ep = 8;
    s.interleave = 8;
    s.sequence_parallel = true;
    s.zero_stage = 1;
    s.tp_overlap = true;
    s.ep_overlap = 0.9;
    return c;
}

struct Shipped {
    std::string name;
    Config config;
    int sample = strategies_per_scenario;  // strategies drawn from its search besides its own
};

// Every shipped scenario (its own configuration and each compared design's), the two
// reproductions, and every validation row with the strategy the validation predicts for it.
std::vector<Shipped> shipped_configurations() {
    std::vector<Shipped> out;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(source_path("presets/scenarios")))
        if (e.path().string().ends_with(".comet.json")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        const Loaded<Scenario> l = load_scenario_file(f);
        if (!l.ok()) qFatal("%s", l.error_text().c_str());
        const std::string stem = f.filename().string();
        out.push_back({stem, l.value->config});
        for (const Design& d : l.value->designs) out.push_back({stem + " / " + d.name, design_config(l.value->config, d)});
    }
    out.push_back({"issue 37: GPT 1.7B on 1 DGX H100", gpt_1p7b_host_bound()});
    out.push_back({"issue 37: Qwen3-30B-A3B FP8 on 2 DGX H100", qwen3_30b_host_bound()});
    std::vector<std::string> errors;
    const std::vector<NodePreset> nodes = load_node_presets(errors);
    const std::vector<ModelPreset> models = load_model_presets(errors);
    const std::vector<SoftwarePreset> software = load_software_presets(errors);
    const ValidationRun run = run_validation(validation_files(source_path("presets/validation")), nodes, models, software);
    for (const TableValidation& t : run.tables)
        for (const Prediction& p : t.predictions) {
            if (!p.result.feasible) continue;
            const NodePreset* node = match_node_preset(nodes, p.measured.hardware);
            const SoftwarePreset* sw = match_software_preset(software, p.measured.software);
            if (!node || !sw) continue;
            Config c = p.measured.config;
            c.node = node->node;
            c.software = sw->software;
            c.strategy = p.strategy;
            c.cluster.nodes = static_cast<int>((accelerators_used(c.strategy) + node->node.accelerators - 1) / node->node.accelerators);
            out.push_back({t.file + " / " + p.measured.id, c, 0});
        }
    return out;
}

// A deterministic sample of a configuration's feasible strategies: its own, and `sample` of the
// search's best 6 x `sample`, evenly spaced (so from the best to the middling).
std::vector<Strategy> sampled_strategies(const Shipped& s) {
    std::vector<Strategy> out{s.config.strategy};
    const int want = s.sample;
    if (want <= 0) return out;
    SearchOptions o;
    o.top_k = 6 * want;
    const SearchResult r = search(s.config, o);
    const std::size_t n = r.top.size();
    const std::size_t stride = std::max<std::size_t>(1, n / static_cast<std::size_t>(want));
    for (std::size_t i = 0; i < n; i += stride) out.push_back(r.top[i].strategy);
    return out;
}

}  // namespace

class TestInvariants : public QObject {
    Q_OBJECT

private slots:
    void everyResultIsFiniteAndConsistent();
    void moreResourcesNeverHurt();
    void fasterHardwareNeverSlowsShippedConfigurations();
    void fasterHardwareNeverSlowsTheSearchesBest();
};

void TestInvariants::everyResultIsFiniteAndConsistent() {
    const long long n = sample_size();
    QElapsedTimer timer;
    timer.start();
    const Tally t = over_sample(n, [](long long i, Tally& tally) {
        const Config c = random_config(static_cast<std::uint64_t>(i));
        const Result r = evaluate(c);
        ++tally.configs;
        ++tally.by_reason[static_cast<int>(r.reason) % static_cast<int>(Infeasible::count_)];
        tally.feasible += r.feasible;
        tally.timed += timed(r);
        tally.invalid += r.reason == Infeasible::invalid_input;
        if (QByteArray problem = result_problem(c, r); !problem.isEmpty())
            tally.fail(i, problem + " [" + QByteArray::fromStdString(std::string(to_string(r.reason))) + "] at " + describe(c));
    });
    QByteArray reasons;
    for (int i = 0; i < static_cast<int>(Infeasible::count_); ++i)
        if (t.by_reason[i] > 0)
            reasons += " " + QByteArray::fromStdString(std::string(to_string(static_cast<Infeasible>(i)))) + " " +
                       QByteArray::number(t.by_reason[i]);
    qInfo("everyResultIsFiniteAndConsistent: %lld configurations in %.1f s: %lld feasible, %lld with an estimate, %lld invalid;%s",
          t.configs, static_cast<double>(timer.elapsed()) / 1000.0, t.feasible, t.timed, t.invalid, reasons.constData());
    QVERIFY2(t.failure_count == 0, t.report());
    QCOMPARE(t.configs, n);
    // The generator must reach every outcome that evaluate() can give, and plenty of feasible ones.
    if (n >= coverage_samples) {
        QVERIFY2(t.feasible >= n / 10, "too few feasible configurations: " + QByteArray::number(t.feasible));
        for (int i = 0; i < static_cast<int>(Infeasible::count_); ++i) {
            const auto reason = static_cast<Infeasible>(i);
            if (reason == Infeasible::no_feasible_strategy) continue;  // a search result, not evaluate()'s
            QVERIFY2(t.by_reason[i] >= 10, "the sample never reaches " + QByteArray::fromStdString(std::string(to_string(reason))));
        }
    }
}

void TestInvariants::moreResourcesNeverHurt() {
    const long long n = sample_size();
    QElapsedTimer timer;
    timer.start();
    const auto& inputs = test::monotone_inputs();
    const Tally t = over_sample(n, [&](long long i, Tally& tally) {
        const Config c = random_config(static_cast<std::uint64_t>(i));
        const Result base = evaluate(c);
        ++tally.configs;
        // Invalid or structurally infeasible: no estimate to compare, and no amount of hardware
        // can change that (the structure does not depend on it).
        if (!timed(base)) return;
        ++tally.timed;
        tally.feasible += base.feasible;
        Rng r(perturb_seed, static_cast<std::uint64_t>(i));
        for (const test::ScaledInput& in : inputs) {
            Config x = c;
            double& v = in.ref(x);
            const double before = v;
            const double factor = 4.0 - 3.0 * r.unit();  // (1, 4]
            if (in.more_is_up) {
                // Zero means "none" (no fp8, no expanded tier): scaling it changes nothing, and
                // adding a tier is not scaling one.
                if (v == 0) {
                    ++tally.skipped;
                    continue;
                }
                v = std::min(v * factor, in.max);  // efficiencies stay fractions
            } else {
                v = r.chance(0.1) ? 0.0 : v / factor;
            }
            if (v == before) {  // an efficiency already at 1, a latency already 0
                ++tally.skipped;
                continue;
            }
            ++tally.checked;
            const Result after = evaluate(x);
            QByteArray why;
            if (first_invalid_field(x) >= 0)
                why = "made the input invalid (the generator must stay below max / 4)";
            else if (base.feasible && !after.feasible)
                why = "made it infeasible: " + QByteArray::fromStdString(explain(after));
            else if (!timed(after))
                why = "lost the estimate: " + QByteArray::fromStdString(std::string(to_string(after.reason)));
            else if (after.iteration_s > base.iteration_s * (1 + rel_monotone))
                why = "slowed the iteration from " + num(base.iteration_s) + " s to " + num(after.iteration_s) + " s";
            if (!why.isEmpty()) tally.fail(i, QByteArray(in.name) + " " + num(before) + " -> " + num(v) + " " + why + " at " + describe(c));
        }
    });
    qInfo(
        "moreResourcesNeverHurt: %lld configurations (%lld with an estimate, %lld feasible), %lld perturbations "
        "(%lld skipped: zero means none, or already at the limit) in %.1f s",
        t.configs, t.timed, t.feasible, t.checked, t.skipped, static_cast<double>(timer.elapsed()) / 1000.0);
    QVERIFY2(t.failure_count == 0, t.report());
    if (n >= coverage_samples) QVERIFY(t.checked >= 5 * n);
}

// Over every shipped configuration and a sample of each one's strategies: no resource made
// faster slows the iteration (beyond rounding) or makes a feasible configuration infeasible.
void TestInvariants::fasterHardwareNeverSlowsShippedConfigurations() {
    QElapsedTimer timer;
    timer.start();
    const std::vector<Shipped> shipped = shipped_configurations();
    const auto& perturbations = hardware_perturbations();
    std::vector<std::pair<const Shipped*, Strategy>> cases;
    for (const Shipped& s : shipped)
        for (const Strategy& st : sampled_strategies(s)) cases.emplace_back(&s, st);
    // One count per perturbation, and a last one for the software letting the switches reduce
    // (software.nvls on, where the node's fabric can): more capability, never slower either.
    std::vector<long long> by_perturbation(perturbations.size() + 1, 0);
    const char* const nvls_name = "software.nvls on";
    long long checked = 0, timed_cases = 0, violations = 0, lost = 0, nvls_checked = 0;
    QByteArray first;
    int kept = 0;
    for (const auto& one : cases) {
        const Shipped* const s = one.first;
        const Strategy& st = one.second;
        Config c = s->config;
        c.strategy = st;
        const Result base = evaluate(c);
        if (!timed(base)) continue;
        ++timed_cases;
        const auto check = [&](const Config& x, std::size_t k, const char* name) {
            ++checked;
            const Result after = evaluate(x);
            QByteArray why;
            if (base.feasible && !after.feasible) {
                why = "made it infeasible: " + QByteArray::fromStdString(explain(after));
                ++lost;
            } else if (!timed(after)) {
                why = "lost the estimate";
            } else if (after.iteration_s > base.iteration_s * (1 + rel_law)) {
                why = "slowed it from " + num(base.iteration_s) + " s to " + num(after.iteration_s) + " s";
            }
            if (why.isEmpty()) return;
            ++violations;
            ++by_perturbation[k];
            if (kept++ < 10)
                first += "\n  " + QByteArray::fromStdString(s->name) + ", " +
                         QByteArray::fromStdString(format_strategy(st, s->config.workload)) + ": " + name + " " + why;
        };
        for (std::size_t k = 0; k < perturbations.size(); ++k) {
            Config x;
            if (perturbed(c, perturbations[k], x)) check(x, k, perturbations[k].name);
        }
        if (c.node.scale_up.switch_allreduce_fraction > 0 && !c.software.nvls) {
            Config x = c;
            x.software.nvls = true;
            ++nvls_checked;
            check(x, perturbations.size(), nvls_name);
        }
    }
    QByteArray per;
    for (std::size_t k = 0; k <= perturbations.size(); ++k)
        if (by_perturbation[k] > 0)
            per += QByteArray(" ") + (k < perturbations.size() ? perturbations[k].name : nvls_name) + ": " +
                   QByteArray::number(by_perturbation[k]) + ";";
    qInfo(
        "fasterHardwareNeverSlowsShippedConfigurations: %zu configurations, %zu strategies (%lld with an estimate), %lld "
        "perturbations in %.1f s: %lld violations (%lld made infeasible);%s",
        shipped.size(), cases.size(), timed_cases, checked, static_cast<double>(timer.elapsed()) / 1000.0, violations, lost,
        per.constData());
    if (violations > 0) qInfo("the first violations:%s", first.constData());
    QVERIFY2(violations == 0, QByteArray::number(violations) + " violations (listed above)");
    QVERIFY(checked > 1000);
    QVERIFY2(nvls_checked > 100, QByteArray::number(nvls_checked));  // the H100 and NVL72 scenarios
}

// The search's best never gets slower with a faster resource either (it can always keep the
// old best, which the law above says is no slower), on the small shipped configurations.
void TestInvariants::fasterHardwareNeverSlowsTheSearchesBest() {
    QElapsedTimer timer;
    timer.start();
    auto scenario = [](const char* file) {
        const Loaded<Scenario> l = load_scenario_file(source_path("presets/scenarios") / file);
        if (!l.ok()) qFatal("%s", l.error_text().c_str());
        return l.value->config;
    };
    const std::vector<std::pair<const char*, Config>> bases = {
        {"GPT 1.7B on 1 DGX H100", gpt_1p7b_host_bound()},
        {"Qwen3-30B-A3B FP8 on 2 DGX H100", qwen3_30b_host_bound()},
        {"llama3-70b-64xh100", scenario("llama3-70b-64xh100.comet.json")},
        {"mixtral-8x7b-32k-128xh100", scenario("mixtral-8x7b-32k-128xh100.comet.json")},
        {"dlrm-2tb-memory-expansion", scenario("dlrm-2tb-memory-expansion.comet.json")},
    };
    long long searches = 0, violations = 0;
    QByteArray first;
    for (const auto& [name, c] : bases) {
        const SearchResult base = search(c);
        ++searches;
        QVERIFY2(base.found(), name);
        for (const Perturbation& p : hardware_perturbations()) {
            Config x;
            if (!perturbed(c, p, x)) continue;
            const SearchResult after = search(x);
            ++searches;
            const double b = base.top.front().result.iteration_s;
            if (after.found() && after.top.front().result.iteration_s <= b * (1 + rel_law)) continue;
            ++violations;
            first += QByteArray("\n  ") + name + ": " + p.name + " best " + num(b) + " s -> " +
                     (after.found() ? num(after.top.front().result.iteration_s) + " s" : QByteArray("none"));
        }
    }
    qInfo("fasterHardwareNeverSlowsTheSearchesBest: %lld searches in %.1f s: %lld violations", searches,
          static_cast<double>(timer.elapsed()) / 1000.0, violations);
    QVERIFY2(violations == 0, QByteArray::number(violations) + " violations:" + first);
}

QTEST_APPLESS_MAIN(TestInvariants)
#include "test_invariants.moc"
