// Mixture of experts with expert parallelism, context parallelism, hierarchical (HSDP) sharding
// and the FSDP balance: each new cost against its closed form, dense models unchanged at the
// neutral values, the search over the new knobs, and the MoE presets.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/evaluate.hpp"
#include "comet/fsdp.hpp"
#include "comet/presets.hpp"
#include "comet/search.hpp"
#include "comet/sweep.hpp"
#include "comet/workload.hpp"
#include "golden_configs.hpp"

using namespace comet;

namespace {

constexpr double GB = 1e9;

// Links with no latency and full efficiency, so that closed forms are bytes / bandwidth.
NodeSpec plain_node() {
    NodeSpec n;
    n.accelerators = 8;
    n.matrix_fp16_tflops = 400;
    n.vector_tflops = 60;
    n.hbm_capacity_gib = 80;
    n.hbm_bandwidth_gbps = 3000;
    n.scale_up = {8, 400, 0, 1.0};
    n.scale_out = {50, 0, 1.0};
    return n;
}

// A small MoE: 4 layers, 8 experts of width 2048 (top-2), sequences of 4096 tokens.
Config moe_config() {
    Config c;
    ModelSpec& m = c.model;
    m = {4, 1024, 8, 8, 128, 4096, true, 4096, 32000, false, false, false};
    m.experts = 8;
    m.experts_per_token = 2;
    m.expert_ffn_hidden = 2048;
    c.node = plain_node();
    c.software.hbm_reserved_gib = 1;
    c.software.hbm_allocator_margin = 0;
    c.cluster.nodes = 1;
    c.training.global_batch = 8;
    c.training.attention = AttentionKernel::fused;
    c.strategy.dp = 8;
    return c;
}

Config dense_config() {
    Config c = moe_config();
    c.model.experts = 0;
    c.model.experts_per_token = 0;
    c.model.expert_ffn_hidden = 0;
    return c;
}

bool close(double a, double b, double rel = 1e-9) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

#define CLOSE(a, b) QVERIFY2(close((a), (b)), qPrintable(QString("%1 = %2, expected %3").arg(#a).arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

}  // namespace

class TestParallelism : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void denseModelsAreUnchanged();
    void neutralKnobsChangeNothing();
    void moeParametersAndFlops();
    void allToAllInsideTheDomain();
    void allToAllAcrossNodes();
    void expertTensorParallelGathers();
    void epOverlapIsLinearAndBounded();
    void expertStatesShardedByEp();
    void contextParallelRing();
    void contextParallelDividesActivations();
    void hierarchicalSharding();
    void structuralChecks();
    void fsdpBalance();
    void searchCoversExpertParallelism();
    void searchCoversContextParallelismAndSharding();
    void moePresetsEvaluateAsMoe();
    void memoryExpansionModes();
    void gridSearchesTheNewKnobs();
};

// Results recorded (after the model changes of issue 13: attention roofline, FP8, uneven
// pipelines, host-bound kernels) for configurations without MoE, CP or HSDP (tests/core/data/dense_golden.txt, one line per
// configuration of golden_configs()): reason, feasible, iteration time, the nine breakdown parts
// that existed, HBM and expanded bytes, parameters, model FLOPs and MFU.
void TestParallelism::denseModelsAreUnchanged() {
    std::vector<std::string> errors;
    const auto models = load_model_presets(errors);
    const auto nodes = load_node_presets(errors);
    QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
    const auto configs = test::golden_configs(models, nodes, 2000);
    // COMET_WRITE_GOLDEN=1 records today's results instead (after a deliberate model change,
    // named in the commit that regenerates the file).
    if (const char* w = std::getenv("COMET_WRITE_GOLDEN"); w && std::string(w) == "1") {
        std::ofstream out(COMET_SOURCE_DIR "/tests/core/data/dense_golden.txt");
        for (const Config& c : configs) {
            const Result r = evaluate(c);
            const auto& t = r.time;
            const double v[14] = {r.iteration_s,
                                  t.compute_s,
                                  t.bubble_s,
                                  t.tp_comm_s,
                                  t.pp_comm_s,
                                  t.dp_comm_s,
                                  t.memory_s,
                                  t.optimizer_s,
                                  t.other_s,
                                  r.hbm.used_bytes(),
                                  r.expanded.used_bytes(),
                                  r.parameters,
                                  r.model_flops,
                                  r.mfu};
            char buf[64];
            out << static_cast<int>(r.reason) << ' ' << (r.feasible ? 1 : 0);
            for (const double x : v) {
                std::snprintf(buf, sizeof buf, " %.17g", x);
                out << buf;
            }
            out << '\n';
        }
        QVERIFY(out.good());
    }
    std::ifstream in(COMET_SOURCE_DIR "/tests/core/data/dense_golden.txt");
    QVERIFY(in.good());
    std::string line;
    std::size_t i = 0, feasible = 0;
    for (; std::getline(in, line); ++i) {
        QVERIFY(i < configs.size());
        std::istringstream ls(line);
        int reason = 0, ok = 0;
        double want[14];
        ls >> reason >> ok;
        for (double& v : want) ls >> v;
        QVERIFY(!ls.fail());
        const Result r = evaluate(configs[i]);
        const auto& t = r.time;
        const double got[14] = {r.iteration_s,
                                t.compute_s,
                                t.bubble_s,
                                t.tp_comm_s,
                                t.pp_comm_s,
                                t.dp_comm_s,
                                t.memory_s,
                                t.optimizer_s,
                                t.other_s,
                                r.hbm.used_bytes(),
                                r.expanded.used_bytes(),
                                r.parameters,
                                r.model_flops,
                                r.mfu};
        QVERIFY2(static_cast<int>(r.reason) == reason,
                 qPrintable(QString("config %1: reason %2, was %3").arg(i).arg(int(r.reason)).arg(reason)));
        QCOMPARE(r.feasible ? 1 : 0, ok);
        for (int k = 0; k < 14; ++k)
            QVERIFY2(
                std::abs(got[k] - want[k]) <= 1e-12 * std::max(std::abs(got[k]), std::abs(want[k])),
                qPrintable(QString("config %1, number %2: %3, was %4").arg(i).arg(k).arg(got[k], 0, 'g', 17).arg(want[k], 0, 'g', 17)));
        QCOMPARE(t.ep_comm_s, 0.0);
        QCOMPARE(t.cp_comm_s, 0.0);
        feasible += r.feasible;
    }
    QCOMPARE(i, configs.size());
    QVERIFY(feasible > 500);
}

void TestParallelism::neutralKnobsChangeNothing() {
    // MoE fields other than `experts` are ignored by a dense model; ep_overlap without experts,
    // and a ZeRO sharding group equal to dp x cp, change nothing.
    const Config base = dense_config();
    const Result want = evaluate(base);
    QVERIFY(want.feasible);
    Config c = base;
    c.model.experts_per_token = 3;
    c.model.expert_ffn_hidden = 777;
    c.model.shared_experts = 2;
    c.model.capacity_factor = 1.7;
    c.strategy.ep_overlap = 0.9;
    QCOMPARE(evaluate(c).iteration_s, want.iteration_s);
    c = base;
    c.strategy.zero_stage = 3;
    const Result z = evaluate(c);
    c.strategy.zero_shard = c.strategy.dp;
    const Result zs = evaluate(c);
    QCOMPARE(zs.iteration_s, z.iteration_s);
    QCOMPARE(zs.hbm.used_bytes(), z.hbm.used_bytes());
    // An MoE model at ep = 1 has no all-to-all.
    const Result moe = evaluate(moe_config());
    QVERIFY(moe.feasible);
    QCOMPARE(moe.time.ep_comm_s, 0.0);
    QCOMPARE(moe.comm.ep_s, 0.0);
}

void TestParallelism::moeParametersAndFlops() {
    const ModelSpec m = moe_config().model;
    const double h = 1024, fe = 2048;
    const double expert = 3.0 * h * fe;                                   // gated: gate, up, down
    const double attention = h * (1024 + 2 * 1024) + 1024 * h + 2.0 * h;  // QKV, projection, two norms
    const double router = h * 8;
    const double ends = 32000.0 * h * 2 + h;  // untied embedding and head, final norm
    CLOSE(total_parameters(m), 4 * (attention + router + 8 * expert) + ends);
    CLOSE(active_parameters(m), 4 * (attention + router + 2 * expert) + ends);
    // Forward GEMM FLOPs per sequence: attention as a dense layer, router, two experts.
    const double s = 4096;
    const double per_layer = 2 * s * h * 3072 + 4 * s * s * 1024 + 2 * s * 1024 * h + 2 * s * h * 8 + 2 * 2 * s * h * 3 * fe;
    CLOSE(forward_gemm_flops_per_sequence(m), 4 * per_layer + 2 * s * h * 32000);
    // Dense layers and interleaving: 10 layers, 2 dense, every second of the other 8 is MoE.
    ModelSpec g = m;
    g.layers = 10;
    g.dense_layers = 2;
    g.moe_layer_interval = 2;
    QCOMPARE(moe_layer_count(g), 4);
    QCOMPARE(dense_layer_count(g), 6);
    CLOSE(total_parameters(g), 6 * layer_parameters(g) + 4 * (attention + router + 8 * expert) + ends);
}

void TestParallelism::allToAllInsideTheDomain() {
    Config c = moe_config();
    c.strategy.ep = 8;
    const Result r = evaluate(c);
    QVERIFY(r.feasible);
    // Each rank routes 2 copies of each of its 4096 tokens: 8192 x 1024 x 2 bytes per all-to-all,
    // of which 7/8 leave the rank over scale-up (400 GB/s). Two all-to-alls per pass, two passes.
    const double bytes = 2.0 * 4096 * 1024 * 2;
    const double a2a = 7.0 / 8.0 * bytes / (400 * GB);
    const double per_layer = 2.0 * (2.0 * a2a);
    CLOSE(r.comm.ep_s, 1 /*microbatch*/ * 4 /*layers*/ * per_layer);
    CLOSE(r.time.ep_comm_s, r.comm.ep_s);  // no overlap: all exposed
    // Capacity factor 1.5 pads the buffers by 1.5; full recompute adds a forward pass (x 3/2).
    c.model.capacity_factor = 1.5;
    CLOSE(evaluate(c).comm.ep_s, 1.5 * r.comm.ep_s);
    c.model.capacity_factor = 1.0;
    c.strategy.recompute = Recompute::full;
    CLOSE(evaluate(c).comm.ep_s, 1.5 * r.comm.ep_s);
}

void TestParallelism::allToAllAcrossNodes() {
    Config c = moe_config();
    c.model.experts = 16;
    c.cluster.nodes = 2;
    c.strategy.dp = 16;
    c.training.global_batch = 16;
    c.strategy.ep = 16;
    const Result r = evaluate(c);
    QVERIFY2(r.feasible, to_string(r.reason).data());
    // 16 ranks, 8 per domain: 7/16 of the buffer over scale-up, 8/16 over scale-out at the same
    // time; the slower tier bounds the step.
    const double bytes = 2.0 * 4096 * 1024 * 2;
    const double a2a = std::max(7.0 / 16.0 * bytes / (400 * GB), 8.0 / 16.0 * bytes / (50 * GB));
    CLOSE(r.comm.ep_s, 4 * 2.0 * (2.0 * a2a));
}

void TestParallelism::expertTensorParallelGathers() {
    Config c = moe_config();
    c.strategy.tp = 2;
    c.strategy.dp = 4;
    c.strategy.ep = 4;
    c.strategy.etp = 2;
    c.strategy.sequence_parallel = true;
    const Result r = evaluate(c);
    QVERIFY2(r.feasible, to_string(r.reason).data());
    // Tokens per rank 4096 / tp 2 = 2048, 2 copies each. EP group: 4 ranks 2 apart, inside the
    // domain; ETP group: 2 adjacent ranks gather 2 x the copies, then reduce-scatter them.
    const double routed = 2.0 * 2048;
    const double bytes = 2.0 * routed * 1024;
    const double a2a = 3.0 / 4.0 * bytes / (400 * GB);
    const double gathered = 2.0 * bytes;
    const double ag = 1.0 / 2.0 * gathered / (400 * GB);
    const double pass = 2.0 * a2a + 2.0 * ag;
    CLOSE(r.comm.ep_s, 2 /*microbatches*/ * 4 * 2.0 * pass);
    // Expert weights per rank: 8 experts / ep 4 = 2, each split over etp 2.
    c.strategy.zero_stage = 0;
    const Result e1 = evaluate(c);
    c.strategy.etp = 1;
    const Result e2 = evaluate(c);
    const double expert = 3.0 * 1024 * 2048;
    CLOSE(e2.hbm.weights_bytes - e1.hbm.weights_bytes, 4 * 2 * expert * 2.0 * (1.0 - 0.5));
}

void TestParallelism::epOverlapIsLinearAndBounded() {
    Config c = moe_config();
    c.strategy.ep = 8;
    c.node.scale_up.bandwidth_gbps = 20;  // all-to-all longer than the expert GEMMs
    auto ep_at = [&](double ov) {
        Config x = c;
        x.strategy.ep_overlap = ov;
        return evaluate(x);
    };
    const Result r0 = ep_at(0), r5 = ep_at(0.5), r1 = ep_at(1);
    QVERIFY(r0.feasible && r1.feasible);
    CLOSE(r0.time.ep_comm_s, r0.comm.ep_s);
    CLOSE(r5.time.ep_comm_s, 0.5 * (r0.time.ep_comm_s + r1.time.ep_comm_s));
    QVERIFY(r1.time.ep_comm_s < r0.time.ep_comm_s);
    // What hides is at most the expert GEMM time; the rest stays exposed.
    QVERIFY(r1.time.ep_comm_s > overlap_contention * r0.time.ep_comm_s);
    QCOMPARE(r1.time.compute_s, r0.time.compute_s);
    QVERIFY(r1.iteration_s < r0.iteration_s);
    // A fast fabric: the all-to-all is shorter than its window and hides completely, at the
    // contention price.
    c.node.scale_up.bandwidth_gbps = 100000;
    const Result f0 = ep_at(0), f1 = ep_at(1);
    CLOSE(f1.time.ep_comm_s, overlap_contention * f0.time.ep_comm_s);
}

void TestParallelism::expertStatesShardedByEp() {
    Config c = moe_config();
    const Result e1 = evaluate(c);
    c.strategy.ep = 8;
    const Result e8 = evaluate(c);
    const double expert_layer = 8 * 3.0 * 1024 * 2048;  // all routed experts of one layer
    const double moved = 4 * expert_layer * (1.0 - 1.0 / 8);
    CLOSE(e1.hbm.weights_bytes - e8.hbm.weights_bytes, moved * 2);
    CLOSE(e1.hbm.gradients_bytes - e8.hbm.gradients_bytes, moved * 4);
    CLOSE(e1.hbm.optimizer_bytes - e8.hbm.optimizer_bytes, moved * 12);
    // ZeRO-1: replicated states shard over dp = 8; expert states over the expert-data-parallel
    // ranks: tp x cp x dp / (ep x etp) = 8 / 8 = 1 at ep 8, 8 at ep 1.
    c.strategy.zero_stage = 1;
    const Result z8 = evaluate(c);
    c.strategy.ep = 1;
    const Result z1 = evaluate(c);
    CLOSE(z1.hbm.optimizer_bytes, z8.hbm.optimizer_bytes);  // both hold 1/8 of the expert states
    // Token buffers for dispatch and combine appear as "other".
    QVERIFY(e8.hbm.other_bytes > 1.0 * (1 << 30));
}

void TestParallelism::contextParallelRing() {
    Config c = dense_config();
    c.strategy.cp = 2;
    c.strategy.dp = 4;
    const Result r = evaluate(c);
    QVERIFY2(r.feasible, to_string(r.reason).data());
    // One K and one V chunk of this rank: 2048 tokens x 8 KV heads x 128 x 2 bytes each, passed
    // cp - 1 = 1 time in forward, twice (with its gradient) in backward.
    const double chunk = 2.0 * 2.0 * 2048 * 8 * 128;
    const double step = chunk / (400 * GB);
    CLOSE(r.comm.cp_s, 2 /*microbatches*/ * 4 /*layers*/ * 3.0 * step);
    QVERIFY(r.time.cp_comm_s <= r.comm.cp_s);
    // Recomputed attention passes the chunks once more.
    c.strategy.recompute = Recompute::selective;
    CLOSE(evaluate(c).comm.cp_s, 2 * 4 * 4.0 * step);
    // A ring that leaves the domain runs at scale-out speed: tp 8 puts the two CP ranks in two nodes.
    c = dense_config();
    c.cluster.nodes = 2;
    c.strategy.tp = 8;
    c.strategy.cp = 2;
    c.strategy.dp = 1;
    c.training.global_batch = 8;
    const Result x = evaluate(c);
    QVERIFY2(x.feasible, to_string(x.reason).data());
    const double chunk8 = 2.0 * 2.0 * 2048 * 1 * 128;  // one KV head per TP rank
    CLOSE(x.comm.cp_s, 8 * 4 * 3.0 * chunk8 / (50 * GB));
}

void TestParallelism::contextParallelDividesActivations() {
    for (AttentionKernel k : {AttentionKernel::fused, AttentionKernel::unfused}) {
        Config c = dense_config();
        c.training.attention = k;
        c.cluster.nodes = 2;
        const Result one = evaluate(c);
        c.strategy.cp = 4;
        c.strategy.dp = 4;  // the same 16 GPUs
        const Result four = evaluate(c);
        CLOSE(four.hbm.activations_bytes, one.hbm.activations_bytes / 4);
        // Every rank holds a quarter of the tokens: attention is a quarter of the work too.
        QVERIFY(four.time.compute_s / four.microbatches < 0.3 * one.time.compute_s / one.microbatches);
    }
}

void TestParallelism::hierarchicalSharding() {
    Config c = dense_config();
    c.cluster.nodes = 2;
    c.strategy.dp = 16;
    c.training.global_batch = 16;
    c.strategy.zero_stage = 3;
    c.strategy.zero_shard = 8;  // shard inside each node, replicate across the two
    const Result r = evaluate(c);
    QVERIFY2(r.feasible, to_string(r.reason).data());
    const double P = r.parameters;
    CLOSE(r.hbm.optimizer_bytes, P * 12 / 8);
    // Every microbatch: two weight gathers and one gradient reduce-scatter among the 8 ranks of
    // a node (scale-up); once per iteration the 1/8 gradient shard is all-reduced between the
    // two nodes (scale-out).
    const double ag = 7.0 / 8.0 * (2.0 * P) / (400 * GB);
    const double rs = 7.0 / 8.0 * (4.0 * P) / (400 * GB);
    CLOSE(r.comm.dp_microbatch_s, 2 * ag + rs);
    const double across = 2.0 * 1.0 / 2.0 * (4.0 * P / 8) / (50 * GB);
    CLOSE(r.comm.dp_s, 1 * (2 * ag + rs) + across);
    // Sharding over all 16 ranks crosses scale-out every microbatch: slower here.
    c.strategy.zero_shard = 0;
    const Result full = evaluate(c);
    QVERIFY(full.comm.dp_microbatch_s > r.comm.dp_microbatch_s);
    CLOSE(full.hbm.optimizer_bytes, P * 12 / 16);
}

void TestParallelism::structuralChecks() {
    auto reason = [](const Config& c) { return evaluate(c).reason; };
    Config c = dense_config();
    c.strategy.ep = 2;
    QCOMPARE(reason(c), Infeasible::ep_dense_model);
    c = moe_config();
    c.strategy.ep = 3;
    QCOMPARE(reason(c), Infeasible::ep_experts);
    c.strategy.ep = 8;
    c.strategy.dp = 4;
    c.training.global_batch = 8;
    c.cluster.nodes = 1;
    QCOMPARE(reason(c), Infeasible::ep_group);  // 8 does not divide tp x cp x dp = 4
    c = moe_config();
    c.strategy.etp = 3;
    QCOMPARE(reason(c), Infeasible::etp_ffn);
    c = dense_config();
    c.strategy.cp = 3;
    c.strategy.dp = 2;
    QCOMPARE(reason(c), Infeasible::cp_seq);
    c = dense_config();
    c.strategy.zero_shard = 3;
    QCOMPARE(reason(c), Infeasible::zero_shard_group);
    c = dense_config();
    c.strategy.cp = 2;
    QCOMPARE(reason(c), Infeasible::too_many_accelerators);  // 2 x 8 on one node of 8
}

void TestParallelism::fsdpBalance() {
    Config c = dense_config();
    c.model.layers = 24;
    c.cluster.nodes = 4;
    const std::vector<int> dps = {2, 8, 32};
    const auto points = fsdp_balance(c, dps);
    QCOMPARE(points.size(), dps.size());
    double last_max = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const FsdpPoint& p = points[i];
        QCOMPARE(p.dp, dps[i]);
        QCOMPARE(p.reason, Infeasible::none);
        QCOMPARE(p.gpus, static_cast<long long>(dps[i]));
        // The traffic is the ZeRO-3 traffic evaluate() charges per microbatch.
        Config z = c;
        z.strategy.zero_stage = 3;
        z.strategy.dp = dps[i];
        z.strategy.microbatch = 1;
        z.training.global_batch = dps[i];  // the base has one microbatch per replica
        z.cluster.nodes = (dps[i] + 7) / 8;
        const Result r = evaluate(z);
        CLOSE(p.fsdp_comm_s, r.comm.dp_microbatch_s);
        CLOSE(p.compute_s_per_token, r.time.compute_s / 4096.0);
        CLOSE(p.tokens_to_hide, p.fsdp_comm_s / p.compute_s_per_token);
        // The largest microbatch fits, one more does not.
        QVERIFY(p.max_microbatch >= 1);
        QCOMPARE(p.max_tokens_hbm, 4096.0 * p.max_microbatch);
        z.strategy.microbatch = p.max_microbatch;
        z.training.global_batch = static_cast<long long>(dps[i]) * p.max_microbatch;
        QVERIFY(evaluate(z).feasible);
        z.strategy.microbatch = p.max_microbatch + 1;
        z.training.global_batch = static_cast<long long>(dps[i]) * (p.max_microbatch + 1);
        QCOMPARE(evaluate(z).reason, Infeasible::hbm_capacity);
        QCOMPARE(p.hidden(), p.max_tokens_hbm >= p.tokens_to_hide);
        // More ranks shard the states thinner: never fewer tokens fit.
        QVERIFY(p.max_tokens_hbm >= last_max);
        last_max = p.max_tokens_hbm;
    }
    // A point that cannot run says why.
    Config bad = c;
    bad.strategy.tp = 3;
    QCOMPARE(fsdp_balance(bad, dps).front().reason, Infeasible::tp_heads);
    // Default degrees: powers of two up to the cluster's (at least 256).
    const auto d = fsdp_default_dps(c);
    QCOMPARE(d.front(), 2);
    QCOMPARE(d.back(), 256);
}

namespace {
// Best time of a search of `c` with `fixed` knobs held at the values in c.
double best_time(const Config& c, KnobSet knobs) {
    SearchOptions o;
    o.knobs = knobs;
    o.top_k = 1;
    const SearchResult r = search(c, o);
    return r.found() ? r.top.front().result.iteration_s : INFINITY;
}
}  // namespace

void TestParallelism::searchCoversExpertParallelism() {
    Config c = moe_config();
    c.model.layers = 8;
    c.cluster.nodes = 2;
    c.strategy.dp = 16;
    c.training.global_batch = 32;
    const KnobSet all = all_strategy_knobs & ~knob_bit(Knob::cp);
    SearchOptions o;
    o.knobs = all;
    o.top_k = 1;
    const SearchResult full = search(c, o);
    QVERIFY(full.found());
    const Candidate& best = full.top.front();
    // The best is what evaluate() says of it.
    Config check = c;
    check.strategy = best.strategy;
    QCOMPARE(evaluate(check).iteration_s, best.result.iteration_s);
    // The search over ep is the best of the searches at each fixed ep.
    double best_fixed = INFINITY;
    std::uint64_t space_fixed = 0;
    for (int ep : {1, 2, 4, 8}) {
        Config f = c;
        f.strategy.ep = ep;
        SearchOptions fo = o;
        fo.knobs = all & ~knob_bit(Knob::ep);
        const SearchResult r = search(f, fo);
        space_fixed += r.stats.space;
        if (r.found()) best_fixed = std::min(best_fixed, r.top.front().result.iteration_s);
    }
    QCOMPARE(best.result.iteration_s, best_fixed);
    QCOMPARE(full.stats.space, space_fixed);  // every ep (1, 2, 4, 8 divide 8 experts and 16 ranks)
    // Expert tensor parallelism is searched too: the space grows when it is.
    SearchOptions no_etp = o;
    no_etp.knobs = all & ~knob_bit(Knob::etp);
    QVERIFY(search(c, no_etp).stats.space < full.stats.space);
}

void TestParallelism::searchCoversContextParallelismAndSharding() {
    Config c = dense_config();
    c.model.seq_len = 32768;
    c.cluster.nodes = 2;
    c.strategy.dp = 16;
    c.training.global_batch = 16;
    const KnobSet all = all_strategy_knobs;
    SearchOptions o;
    o.top_k = 1;
    const SearchResult full = search(c, o);
    QVERIFY(full.found());
    double best_fixed = INFINITY;
    for (int cp : {1, 2, 4, 8}) {  // 32768 / cp >= 4096 tokens per CP rank
        Config f = c;
        f.strategy.cp = cp;
        const double t = best_time(f, all & ~knob_bit(Knob::cp));
        best_fixed = std::min(best_fixed, t);
    }
    QCOMPARE(full.top.front().result.iteration_s, best_fixed);
    // Sequences too short for a 4096-token chunk per rank: no CP tried.
    Config s = c;
    s.model.seq_len = 4096;
    SearchOptions only_cp;
    only_cp.knobs = knob_bit(Knob::cp);
    QCOMPARE(search(s, only_cp).stats.space, std::uint64_t{1});
    // Node-local sharding is among the ZeRO choices: with ZeRO-3 fixed, the sharding search
    // tries 0 (all 16) and 8 (a node), and is the better of the two.
    Config z = c;
    z.model.seq_len = 4096;
    z.strategy.zero_stage = 3;
    z.strategy.microbatch = 1;
    SearchOptions shard;
    shard.knobs = knob_bit(Knob::zero_shard);
    const SearchResult sr = search(z, shard);
    QCOMPARE(sr.stats.space, std::uint64_t{2});
    Config z0 = z, z8 = z;
    z8.strategy.zero_shard = 8;
    QCOMPARE(sr.top.front().result.iteration_s, std::min(evaluate(z0).iteration_s, evaluate(z8).iteration_s));
}

void TestParallelism::moePresetsEvaluateAsMoe() {
    const auto h100 = find_node_preset("dgx-h100");
    QVERIFY(h100.has_value());
    {
        const auto mixtral = find_model_preset("mixtral-8x7b");
        QVERIFY(mixtral.has_value());
        Config c;
        c.model = mixtral->model;
        c.model.seq_len = 4096;
        c.node = h100->node;
        c.cluster.nodes = 8;
        c.training.global_batch = 256;
        c.training.attention = AttentionKernel::fused;
        c.strategy = {};
        c.strategy.tp = 2;
        c.strategy.dp = 32;
        c.strategy.ep = 8;
        c.strategy.sequence_parallel = true;
        c.strategy.zero_stage = 1;
        c.strategy.recompute = Recompute::selective;
        const Result r = evaluate(c);
        QVERIFY2(r.feasible, to_string(r.reason).data());
        QVERIFY(r.time.ep_comm_s > 0);
        QVERIFY(r.active_parameters < 0.3 * r.parameters);
        // Model FLOPs count the active experts: about 6 x 12.9B per token plus attention.
        const double per_token = r.model_flops / (256.0 * 4096);
        QVERIFY(per_token > 6 * 12.5e9 && per_token < 6 * 15e9);
        // A search finds an expert-parallel strategy at least as good.
        SearchOptions o;
        o.top_k = 1;
        o.max_microbatch = 4;
        const SearchResult s = search(c, o);
        QVERIFY(s.found());
        QVERIFY(s.top.front().result.iteration_s <= r.iteration_s);
    }
    {
        const auto ds = find_model_preset("deepseek-v3");
        QVERIFY(ds.has_value());
        QCOMPARE(moe_layer_count(ds->model), 58);
        Config c;
        c.model = ds->model;
        c.node = h100->node;
        c.cluster.nodes = 256;  // 2048 GPUs, as DeepSeek-V3 was trained
        c.training.global_batch = 1920;
        c.training.attention = AttentionKernel::fused;
        c.training.precision = Precision::fp8;
        c.strategy = {};
        c.strategy.tp = 2;
        c.strategy.pp = 16;  // 61 layers: 3 on the first and last stage, 4 on most others
        c.strategy.dp = 64;
        c.strategy.ep = 64;
        c.strategy.sequence_parallel = true;
        c.strategy.zero_stage = 2;
        c.strategy.recompute = Recompute::full;
        c.training.global_batch = 2048;
        const Result r = evaluate(c);
        QVERIFY2(r.feasible, to_string(r.reason).data());
        QVERIFY(r.time.ep_comm_s > 0);
        QVERIFY(std::abs(r.active_parameters / 37e9 - 1) < 0.02);
        c.strategy.ep_overlap = 0.9;
        QVERIFY(evaluate(c).iteration_s < r.iteration_s);
    }
}

// The expanded tier attached per accelerator, per node (its capacity and bandwidth shared by the
// node's 8 accelerators) or pooled across 4 nodes (shared by 32); each offload selectable.
void TestParallelism::memoryExpansionModes() {
    Config c = dense_config();
    c.node.expanded = {1024, 4, 0, ExpandedAttach::per_accelerator, 4};
    c.strategy.offload_weights = true;
    const double P = evaluate(c).parameters;
    for (auto [attach, sharers] : {std::pair{ExpandedAttach::per_accelerator, 1.0}, std::pair{ExpandedAttach::per_node, 8.0},
                                   std::pair{ExpandedAttach::pooled, 32.0}}) {
        c.node.expanded.attach = attach;
        const Result r = evaluate(c);
        QVERIFY2(r.feasible, to_string(r.reason).data());
        CLOSE(r.expanded.capacity_bytes, 1024.0 * (1 << 30) / sharers);
        // Weights live in the tier: fetched for forward and backward, 2 x 2 B per parameter per
        // microbatch, at the accelerator's share of the bandwidth.
        CLOSE(r.expanded.weights_bytes, 2.0 * P);
        CLOSE(r.comm.memory_s, 1 /*microbatch*/ * 2.0 * 2.0 * P / (4 * GB / sharers));
        QVERIFY(r.time.memory_s > 0);  // 4 GB/s cannot keep up with the compute
        CLOSE(r.iteration_s, r.time.total());
    }
    // Each offload moves only its own state.
    c.node.expanded.attach = ExpandedAttach::per_accelerator;
    c.strategy.offload_weights = false;
    const Result none = evaluate(c);
    QCOMPARE(none.expanded.used_bytes(), 0.0);
    QCOMPARE(none.time.memory_s, 0.0);
    c.strategy.offload_optimizer = true;
    const Result opt = evaluate(c);
    CLOSE(opt.expanded.optimizer_bytes, none.hbm.optimizer_bytes);
    QCOMPARE(opt.hbm.optimizer_bytes, 0.0);
    QCOMPARE(opt.expanded.weights_bytes + opt.expanded.activations_bytes, 0.0);
    c.strategy.offload_optimizer = false;
    c.strategy.offload_activations = true;
    const Result act = evaluate(c);
    QVERIFY(act.expanded.activations_bytes > 0);
    QCOMPARE(act.expanded.weights_bytes + act.expanded.optimizer_bytes, 0.0);
    QVERIFY(act.hbm.activations_bytes < none.hbm.activations_bytes);
    // No tier: offload is infeasible, with its own reason.
    c.node.expanded.capacity_gib = 0;
    QCOMPARE(evaluate(c).reason, Infeasible::offload_without_tier);
}

// The grid engine (a sweep with the best strategy per cell) searches ep, etp, cp and the
// sharding group like search() does, including across cells that share a prepared engine; and
// an ep_overlap axis shows what overlap is worth.
void TestParallelism::gridSearchesTheNewKnobs() {
    Config c = moe_config();
    c.model.layers = 8;
    c.model.experts = 64;  // 3.2 B expert parameters: too many to replicate in 24 GiB
    c.model.seq_len = 16384;
    c.node.hbm_capacity_gib = 24;
    c.cluster.nodes = 2;
    c.strategy.dp = 16;
    c.training.global_batch = 32;
    SweepSpec spec;
    spec.x.knob = Knob::scale_out_gbps;
    spec.x.values = {6.25, 25, 100};
    spec.y = Axis{};
    spec.y->knob = Knob::ep_overlap;
    spec.y->values = {0, 0.5, 0.9};
    spec.search = true;
    spec.search_options.top_k = 1;
    const SweepResult grid = run_sweep(c, spec);
    QCOMPARE(grid.cells.size(), std::size_t{9});
    bool some_ep = false;
    for (const SweepCell& cell : grid.cells) {
        Config one = c;
        set_knob(one, Knob::scale_out_gbps, cell.x);
        set_knob(one, Knob::ep_overlap, cell.y);
        SearchOptions o;
        o.top_k = 1;
        o.knobs &= ~knob_bit(Knob::scale_out_gbps) & ~knob_bit(Knob::ep_overlap);
        const SearchResult direct = search(one, o);
        QVERIFY(direct.found());
        QCOMPARE(cell.result.iteration_s, direct.top.front().result.iteration_s);
        QCOMPARE(cell.strategy.ep_overlap, cell.y);  // the axis knob is the cell's, not searched
        some_ep |= cell.strategy.ep > 1;
    }
    QVERIFY(some_ep);  // the experts do not fit unsplit: expert parallelism wins
    // More overlap never makes the best strategy slower.
    for (int ix = 0; ix < 3; ++ix)
        for (int iy = 1; iy < 3; ++iy) QVERIFY(grid.at(ix, iy).result.iteration_s <= grid.at(ix, iy - 1).result.iteration_s);
}

QTEST_APPLESS_MAIN(TestParallelism)
#include "test_parallelism.moc"
