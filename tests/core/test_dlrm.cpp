// The DLRM workload (issue 18), checked in closed form: the shape of the MLPerf DLRM-DCNv2 model
// against its published configuration, the greedy table placement, lookups and updates on the
// tier that holds the rows, the hot-row cache, the exchanges on the network tiers, the overlap
// of the pooled-vector exchange with the bottom MLP, memory per tier, and the messages for
// every broken DLRM field.
#include <QtTest>

#include <cmath>
#include <numeric>

#include "comet/check.hpp"
#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/dlrm.hpp"
#include "comet/evaluate.hpp"
#include "comet/knobs.hpp"
#include "comet/compare.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/search.hpp"
#include "comet/sweep.hpp"
#include "comet/units.hpp"
#include "fixtures.hpp"

using namespace comet;

namespace {

// 8 A100-class GPUs in one NVLink domain (test::small_gpt_config's node) and a DLRM of `groups`
// groups of identical tables; every accelerator data-parallel, table-wise, rows in HBM.
Config dlrm_config(int count, double rows, int dim, double pooling) {
    Config c = test::small_gpt_config();
    c.cluster.nodes = 1;
    c.workload = Workload::dlrm;
    DlrmSpec& d = c.dlrm;
    d.table_groups = 1;
    d.tables[0] = {count, rows, dim, pooling};
    d.dense_features = 13;
    d.bottom_layers = 2;
    d.bottom_mlp[0] = 256;
    d.bottom_mlp[1] = dim;
    d.top_layers = 2;
    d.top_mlp[0] = 256;
    d.top_mlp[1] = 1;
    c.training.global_batch = 8LL * 1024;
    c.strategy = Strategy{};
    c.strategy.dp = 8;
    return c;
}

double relative(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

}  // namespace

class TestDlrm : public QObject {
    Q_OBJECT

private slots:
    // The MLPerf Training DLRM-DCNv2 reference model, from its published command line
    // (mlcommons/training recommendation_v2): 26 tables of 128 columns, 214 lookups per sample,
    // 204 M rows (97.3 GiB in fp32), cross layers over 27 x 128 = 3456 features.
    void mlperfShapeMatchesThePublishedConfiguration() {
        const DlrmSpec d = mlperf_dcnv2_dlrm();
        const double rows[] = {40000000, 39060, 17295, 7424, 20265, 3,  7122,     1543,     63,       40000000, 3067956, 405282, 10,
                               2209,     11938, 155,   4,    976,   14, 40000000, 40000000, 40000000, 590152,   12973,   108,    36};
        const double hot[] = {3, 2, 1, 2, 6, 1, 1, 1, 1, 7, 3, 8, 1, 6, 9, 5, 1, 1, 1, 12, 100, 27, 10, 3, 1, 1};
        QCOMPARE(dlrm_table_count(d), 26.0);
        QCOMPARE(dlrm_embedding_rows(d), std::accumulate(std::begin(rows), std::end(rows), 0.0));
        QCOMPARE(dlrm_lookups_per_sample(d), std::accumulate(std::begin(hot), std::end(hot), 0.0));
        QCOMPARE(dlrm_lookups_per_sample(d), 214.0);
        QCOMPARE(dlrm_pooled_width(d), 26.0 * 128);
        QCOMPARE(dlrm_interaction_width(d), 3456.0);
        QCOMPARE(dlrm_embedding_bytes(d), dlrm_embedding_rows(d) * 128 * 4);
        // Bottom 13-512-256-128, three rank-512 cross layers over 3456, top 3456-1024-1024-512-256-1.
        const double bottom = 13 * 512 + 512 + 512 * 256 + 256 + 256 * 128 + 128;
        const double cross = 3 * (2.0 * 3456 * 512 + 3456);
        const double top = 3456 * 1024 + 1024 + 1024 * 1024 + 1024 + 1024 * 512 + 512 + 512 * 256 + 256 + 256 + 1;
        QCOMPARE(dlrm_mlp_parameters(d), bottom + cross + top);
        const double flops = 2.0 * (13 * 512 + 512 * 256 + 256 * 128) + 3 * 4.0 * 3456 * 512 +
                             2.0 * (3456 * 1024 + 1024 * 1024 + 1024 * 512 + 512 * 256 + 256);
        QCOMPARE(dlrm_forward_flops_per_sample(d), flops);
        QVERIFY2(check_config([&] {
                     Config c = dlrm_config(1, 1, 128, 1);
                     c.dlrm = d;
                     return c;
                 }())
                     .empty(),
                 "the MLPerf shape is valid");
    }

    // Dot interaction: the bottom output and the T pooled vectors, pairwise: (T+1) T / 2 dot
    // products beside the bottom output; X X^T per sample costs 2 (T+1)^2 d FLOPs.
    void dotInteractionIsPairwise() {
        Config c = dlrm_config(26, 1e6, 64, 1);
        QCOMPARE(dlrm_interaction_width(c.dlrm), 64 + 27.0 * 26 / 2);
        const double mlps = 2.0 * (13 * 256 + 256 * 64) + 2.0 * ((64 + 351) * 256 + 256);
        QCOMPARE(dlrm_forward_flops_per_sample(c.dlrm), mlps + 2.0 * 27 * 27 * 64);
    }

    // Table-wise placement is the greedy planner's: one table of pooling 10 and two of pooling 1
    // on two ranks put the big one alone (busiest 10 of a mean 6); identical tables spread evenly,
    // an odd count leaves one rank with one more; row- and column-wise are even.
    void tableWiseBalanceIsGreedy() {
        DlrmSpec d = dlrm_config(1, 1000, 64, 10).dlrm;
        d.table_groups = 2;
        d.tables[1] = {2, 1000, 64, 1};
        const double batch = 100;
        DlrmRankShare s = dlrm_rank_share(d, EmbeddingSharding::table_wise, batch, 2);
        QCOMPARE(s.imbalance, 10.0 / 6.0);
        QCOMPARE(s.lookups, batch * 10);           // the busiest rank holds the pooling-10 table
        QCOMPARE(s.hbm_lookup, batch * 10 * 256);  // 64 fp32 = 256 B, whole sectors
        d.table_groups = 1;
        d.tables[0] = {7, 1000, 64, 1};
        s = dlrm_rank_share(d, EmbeddingSharding::table_wise, batch, 4);
        QCOMPARE(s.lookups, batch * 2);  // 7 tables on 4 ranks: 2, 2, 2, 1
        QCOMPARE(s.rows_bytes, 2 * 1000 * 256.0);
        QCOMPARE(s.out_width, 2 * 64.0);
        s = dlrm_rank_share(d, EmbeddingSharding::row_wise, batch, 4);
        QCOMPARE(s.lookups, batch * 7 / 4);
        QCOMPARE(s.out_width, 7 * 64.0);  // partial sums of every table
        s = dlrm_rank_share(d, EmbeddingSharding::column_wise, batch, 4);
        QCOMPARE(s.lookups, batch * 7);          // every lookup, a quarter of the row
        QCOMPARE(s.hbm_lookup, batch * 7 * 64);  // 16 fp32 = 64 B
        QCOMPARE(s.out_width, 7 * 16.0);
        // Small segments cost whole sectors (HBM, 32 B) and lines (link, 64 B): 8 columns of fp32.
        d.tables[0] = {1, 1000, 8, 1};
        s = dlrm_rank_share(d, EmbeddingSharding::table_wise, batch, 1);
        QCOMPARE(s.hbm_lookup, batch * 32);
        QCOMPARE(s.link_lookup, batch * 64);
        // Thousands of identical tables on thousands of ranks are placed in bulk, exactly.
        d.tables[0] = {1000001, 10, 64, 1};
        s = dlrm_rank_share(d, EmbeddingSharding::table_wise, batch, 1000);
        QCOMPARE(s.lookups, batch * 1001);
    }

    // Lookups and updates in HBM, in closed form: a memory-bound gather of the indices, the rows
    // and the pooled vectors in forward; in backward the pooled gradients, the sort of the indices
    // and a read and write of every distinct row and its row-wise AdaGrad state.
    void lookupsAndUpdatesInHbm() {
        Config c = dlrm_config(8, 1e6, 64, 4);
        c.dlrm.unique_rows_fraction = 0.5;
        const Result r = evaluate(c);
        QVERIFY2(r.feasible, explain(r).c_str());
        const double batch = 8 * 1024, lookups = batch * 4;  // one table per rank
        const ComputeRates rates = compute_rates(c.node, c.training.precision);
        const double pooled = batch * 64 * 2;
        const double fwd = lookups * 8 + pooled + lookups * 256;
        const double bwd = pooled + lookups * 64 + 2 * 0.5 * lookups * 256 + 2 * 0.5 * lookups * 4;
        const double expected = pass_time_s({lookups * 64, fwd, 1}, OpKind::elementwise, rates) +
                                pass_time_s({2 * lookups * 64, bwd, 2}, OpKind::elementwise, rates);
        QVERIFY2(relative(r.time.lookup_s, expected) < 1e-12,
                 qPrintable(QString::number(r.time.lookup_s) + " vs " + QString::number(expected)));
        QCOMPARE(r.time.memory_s, 0.0);
        QCOMPARE(r.time.total(), r.iteration_s);
        QCOMPARE(r.tokens_per_s * r.iteration_s, batch);  // samples per second
        // HBM holds the rows and their state, the MLPs' states, the activations and buffers.
        QVERIFY(r.hbm.weights_bytes >= 1e6 * 256);
        QVERIFY(r.hbm.optimizer_bytes >= 1e6 * 4);
        QCOMPARE(r.expanded.used_bytes(), 0.0);
    }

    // CUDA graphs: an eager step's small MLP kernels wait for the host (45 us each on the
    // Blackwell presets), so the dense part costs the host's issue time; captured as graphs
    // the host replays them and the dense part is the accelerator's own time, exactly as on a
    // node whose host never falls behind. The knob changes nothing else.
    void cudaGraphsLiftTheHostBound() {
        Config c = dlrm_config(8, 1e6, 64, 4);
        c.software.host_op_us = 45;
        c.training.global_batch = 8LL * 64;  // 64 samples per rank: tiny kernels
        const Result eager = evaluate(c);
        QVERIFY2(eager.feasible, explain(eager).c_str());
        Config graphs = c;
        graphs.training.cuda_graphs = true;
        const Result captured = evaluate(graphs);
        QVERIFY2(captured.feasible, explain(captured).c_str());
        Config no_host = c;
        no_host.software.host_op_us = 0;
        const Result free_host = evaluate(no_host);
        QCOMPARE(captured.time.compute_s, free_host.time.compute_s);
        QCOMPARE(captured.iteration_s, free_host.iteration_s);
        QVERIFY2(eager.time.compute_s > 2 * captured.time.compute_s,
                 qPrintable(QString::number(eager.time.compute_s) + " vs " + QString::number(captured.time.compute_s)));
        QCOMPARE(captured.time.lookup_s, eager.time.lookup_s);
        QCOMPARE(captured.hbm.used_bytes(), eager.hbm.used_bytes());
        // The knob as a sweep axis sets the same field.
        Config knobbed = c;
        set_knob(knobbed, Knob::cuda_graphs, 1);
        QVERIFY(knobbed.training.cuda_graphs);
        QCOMPARE(get_knob(knobbed, Knob::cuda_graphs), 1.0);
        QCOMPARE(evaluate(knobbed).iteration_s, captured.iteration_s);
    }

    // Rows in the expanded tier: the lookup reads them over its link (64 B lines), the update
    // reads and writes them (both directions at once); the link time beyond HBM's is exposed
    // memory time, and twice the bandwidth halves it (less the latency).
    void rowsInTheExpandedTierCostTheLink() {
        Config c = dlrm_config(8, 1e6, 16, 8);  // 64 B rows
        c.node.expanded = {4096, 32, 1, ExpandedAttach::per_accelerator, 1};
        c.strategy.emb_placement = EmbeddingPlacement::expanded;
        const Result slow = evaluate(c);
        QVERIFY2(slow.feasible, explain(slow).c_str());
        const double lookups = 8 * 1024 * 8.0;
        const double link = 32e9;
        const double fwd_link = lookups * 64 / link + 1e-6;
        const double bwd_link = (lookups * 64 + lookups * 4) / link + 1e-6;  // rows and their state, each way
        QVERIFY(slow.time.memory_s > 0);
        QVERIFY2(relative(slow.comm.memory_s, fwd_link + bwd_link) < 1e-12, qPrintable(QString::number(slow.comm.memory_s)));
        QCOMPARE(slow.expanded.weights_bytes, 1e6 * 64.0);
        QCOMPARE(slow.expanded.optimizer_bytes, 1e6 * 4.0);
        c.node.expanded.bandwidth_gbps = 64;
        const Result fast = evaluate(c);
        QVERIFY(fast.iteration_s < slow.iteration_s);
        QVERIFY2(relative(fast.comm.memory_s, (fwd_link + bwd_link - 2e-6) / 2 + 2e-6) < 1e-12,
                 qPrintable(QString::number(fast.comm.memory_s)));
        // The same rows in HBM: no link, no exposed memory time.
        c.strategy.emb_placement = EmbeddingPlacement::hbm;
        const Result hbm = evaluate(c);
        QCOMPARE(hbm.time.memory_s, 0.0);
        QVERIFY(hbm.iteration_s < fast.iteration_s);
        // Without a tier the placement is refused, saying why.
        c.strategy.emb_placement = EmbeddingPlacement::cached;
        c.node.expanded = {};
        QCOMPARE(evaluate(c).reason, Infeasible::offload_without_tier);
    }

    // The hot-row cache: HBM holds its share of the rows (and their state); every lookup is
    // served from HBM after the prefetch, which fetches the missed distinct rows with their state
    // and writes as many evicted ones back, behind the rest of the iteration. All hits: no link.
    void hotRowCache() {
        Config c = dlrm_config(8, 1e8, 64, 20);
        c.node.expanded = {65536, 64, 1, ExpandedAttach::per_accelerator, 1};
        c.strategy.emb_placement = EmbeddingPlacement::cached;
        c.strategy.emb_cache_fraction = 0.1;
        c.strategy.emb_cache_hit_rate = 1.0;
        const Result all_hits = evaluate(c);
        QVERIFY2(all_hits.feasible, explain(all_hits).c_str());
        QCOMPARE(all_hits.comm.memory_s, 0.0);
        QCOMPARE(all_hits.time.memory_s, 0.0);
        QCOMPARE(all_hits.hbm.weights_bytes - all_hits.hbm.gradients_bytes / 2, 0.1 * 1e8 * 256);  // MLP weights 2 B, grads 4 B
        QCOMPARE(all_hits.expanded.weights_bytes, 1e8 * 256);
        c.strategy.emb_cache_hit_rate = 0.5;
        const Result half = evaluate(c);
        const double misses = 0.5 * 8 * 1024 * 20;  // distinct rows: every lookup (unique fraction 1)
        const double link = misses * (256 + 4) / 64e9 + 1e-6;
        QVERIFY2(relative(half.comm.memory_s, link) < 1e-12,
                 qPrintable(QString::number(half.comm.memory_s) + " vs " + QString::number(link)));
        QVERIFY(half.iteration_s >= all_hits.iteration_s);
        // Only what the rest of the iteration cannot hide is exposed (and 15 % of what it hides).
        const double rest = half.iteration_s - half.time.memory_s;
        QVERIFY2(relative(half.time.memory_s, exposed_comm_s(link, rest, 1.0)) < 1e-9, qPrintable(QString::number(half.time.memory_s)));
        // Rows no tier can hold: the verdict names the tier.
        c.node.expanded.capacity_gib = 8;
        const Result full = evaluate(c);
        QCOMPARE(full.reason, Infeasible::expanded_capacity);
        QVERIFY(full.detail_a > full.detail_b);
    }

    // A table too large for HBM does not fit there; in the expanded tier it does.
    void capacityVerdicts() {
        Config c = dlrm_config(8, 1e9, 128, 1);  // 512 GB per table, one per rank
        Result r = evaluate(c);
        QCOMPARE(r.reason, Infeasible::hbm_capacity);
        QVERIFY(r.detail_a > 512e9 && r.detail_b == units::gib_to_bytes(80));
        QVERIFY2(explain(r).find("does not fit in HBM") != std::string::npos, explain(r).c_str());
        c.node.expanded = {4096, 100, 1, ExpandedAttach::per_accelerator, 1};
        c.strategy.emb_placement = EmbeddingPlacement::expanded;
        r = evaluate(c);
        QVERIFY2(r.feasible, explain(r).c_str());
    }

    // Exchanges: table-wise sends each rank's pooled vectors of the whole batch to the samples'
    // ranks (an all-to-all) and the gradients back; the indices travel ahead. Row-wise reduces
    // partial sums of every table (reduce-scatter) and gathers the gradients: on many ranks far
    // more bytes, though the node-local step of the hierarchical reduction takes most of them off
    // the scale-out network. Column-wise needs dp to divide every dim.
    void exchangesOnTheNetwork() {
        Config c = dlrm_config(64, 1e5, 64, 2);
        c.cluster.nodes = 8;
        c.strategy.dp = 64;
        c.training.global_batch = 64LL * 512;
        const GroupSpan g = span_group(64, 1, c.node, 8);
        const double batch = 64 * 512;
        const double index = all_to_all_s(512 * 64 * 2 * 8.0, g);
        const double pooled = all_to_all_s(batch * 64 * 2.0, g);  // one table per rank
        Result r = evaluate(c);
        QVERIFY2(r.feasible, explain(r).c_str());
        QVERIFY2(relative(r.comm.emb_s, index + 2 * pooled) < 1e-12, qPrintable(QString::number(r.comm.emb_s)));
        c.strategy.emb_sharding = EmbeddingSharding::row_wise;
        const Result row = evaluate(c);
        const double partial = batch * 64 * 64 * 2.0;
        QVERIFY2(relative(row.comm.emb_s, index + reduce_scatter_s(partial, g) + all_gather_s(partial, g)) < 1e-12,
                 qPrintable(QString::number(row.comm.emb_s)));
        // 64 times the bytes, reduced inside each node first (hierarchically): still several times slower.
        QVERIFY(row.comm.emb_s > 4 * r.comm.emb_s);
        c.strategy.emb_sharding = EmbeddingSharding::column_wise;
        r = evaluate(c);
        QVERIFY2(r.feasible, explain(r).c_str());  // 64 columns over 64 ranks
        c.strategy.dp = 48;
        c.training.global_batch = 48LL * 512;
        r = evaluate(c);
        QCOMPARE(r.reason, Infeasible::dlrm_column_split);
        QCOMPARE(r.detail_a, 48.0);
        QCOMPARE(r.detail_b, 64.0);
        QVERIFY2(explain(r).find("column-wise") != std::string::npos, explain(r).c_str());
    }

    // The pooled vectors travel while the bottom MLP runs: with a bottom MLP longer than the
    // exchange only 15 % of the exchange shows; with a tiny one most of it does.
    void pooledExchangeHidesBehindTheBottomMlp() {
        Config c = dlrm_config(64, 1e5, 64, 1);
        c.cluster.nodes = 8;
        c.strategy.dp = 64;
        c.training.global_batch = 64LL * 2048;
        c.node.scale_out.bandwidth_gbps = 2;  // a slow network
        const GroupSpan g = span_group(64, 1, c.node, 8);
        const double pooled = all_to_all_s(64 * 2048 * 64 * 2.0, g);
        c.dlrm.bottom_layers = 1;
        c.dlrm.bottom_mlp[0] = 64;
        const Result tiny = evaluate(c);
        c.dlrm.bottom_layers = 4;
        c.dlrm.bottom_mlp = {16384, 16384, 16384, 64};
        const Result big = evaluate(c);
        QVERIFY(tiny.feasible && big.feasible);
        // Forward and backward each: the big bottom MLP hides the exchange but for its contention.
        QVERIFY(big.time.emb_comm_s < 0.5 * tiny.time.emb_comm_s);
        QVERIFY(tiny.time.emb_comm_s > 1.5 * pooled);
        QVERIFY(big.time.emb_comm_s >= 2 * overlap_contention * pooled * (1 - 1e-12));
    }

    // The MLPs' gradient all-reduce over every rank hides behind the backward after the top MLP;
    // without overlap all of it shows.
    void mlpAllReduce() {
        Config c = dlrm_config(64, 1e5, 64, 1);
        c.cluster.nodes = 8;
        c.strategy.dp = 64;
        c.training.global_batch = 64LL * 256;
        const GroupSpan g = span_group(64, 1, c.node, 8);
        const double ar = all_reduce_s(dlrm_mlp_parameters(c.dlrm) * 4, g);
        Result r = evaluate(c);
        QCOMPARE(r.comm.dp_s, ar);
        c.strategy.dp_overlap = false;
        r = evaluate(c);
        QCOMPARE(r.time.dp_comm_s, ar);
    }

    // Every broken DLRM input is refused with its key path, the value and what is allowed.
    void brokenFieldsAreNamed() {
        const auto message = [](Config c) {
            const auto errors = check_config(c);
            return errors.empty() ? std::string() : errors.front().message();
        };
        Config c = dlrm_config(8, 1e6, 64, 2);
        QVERIFY(check_config(c).empty());
        Config x = c;
        x.dlrm.tables[0].rows = 0;
        QCOMPARE(QString::fromStdString(message(x)),
                 QStringLiteral("dlrm.tables[0].rows = 0: must be a whole number of rows from 1 to 1e13"));
        x = c;
        x.dlrm.tables[0].rows = 2.5;
        QVERIFY(message(x).starts_with("dlrm.tables[0].rows = 2.5"));
        x = c;
        x.dlrm.tables[0].dim = 0;
        QVERIFY(message(x).starts_with("dlrm.tables[0].dim = 0: must be an integer from 1 to 65536"));
        x = c;
        x.dlrm.tables[0].pooling = std::nan("");
        QVERIFY(message(x).starts_with("dlrm.tables[0].pooling = nan: must be > 0"));
        x = c;
        x.dlrm.tables[0].count = -3;
        QVERIFY(message(x).starts_with("dlrm.tables[0].count = -3"));
        x = c;
        x.dlrm.table_groups = 0;
        QVERIFY(message(x).starts_with("dlrm.tables = 0: must be a list of 1 to 32 table groups"));
        x = c;
        x.dlrm.top_layers = 9;
        QVERIFY(message(x).starts_with("dlrm.top_mlp = 9: must be a list of 1 to 8 layer widths"));
        x = c;
        x.dlrm.bottom_mlp[0] = 0;
        QVERIFY(message(x).starts_with("dlrm.bottom_mlp[0] = 0: must be an integer width from 1 to 1e7"));
        x = c;
        x.dlrm.table_groups = 2;
        x.dlrm.tables[1] = {1, 10, 32, 1};
        QVERIFY2(message(x).starts_with("dlrm.tables[1].dim = 32: must be the same dim as dlrm.tables[0]"), message(x).c_str());
        x = c;
        x.dlrm.bottom_mlp[1] = 128;
        QVERIFY2(message(x).starts_with("dlrm.bottom_mlp[1] = 128: must be the tables' dim"), message(x).c_str());
        // The dot interaction of a single vector (one table, no dense features) has nothing to
        // pair: refused, where it used to give the top MLP an empty input and a NaN time.
        x = c;
        x.dlrm.interaction = DlrmInteraction::dot;
        x.dlrm.table_groups = 1;
        x.dlrm.tables[0] = {1, 10, 16, 1};
        x.dlrm.dense_features = 0;
        x.dlrm.bottom_layers = 0;
        QVERIFY2(message(x).starts_with("dlrm.tables[0].count = 1: must be at least 2 tables with the dot interaction"),
                 message(x).c_str());
        QCOMPARE(evaluate(x).reason, Infeasible::invalid_input);
        x.dlrm.tables[0].count = 2;  // two vectors: one pair
        QVERIFY2(message(x).empty(), message(x).c_str());
        const Result two = evaluate(x);
        QVERIFY2(two.feasible && std::isfinite(two.iteration_s) && two.iteration_s > 0, explain(two).c_str());
        x = c;
        x.dlrm.unique_rows_fraction = 0;
        QVERIFY(message(x).starts_with("dlrm.unique_rows_fraction = 0: must be a fraction > 0"));
        x = c;
        x.strategy.tp = 2;
        QVERIFY2(message(x).starts_with("strategy.tp = 2: must be 1 for a DLRM"), message(x).c_str());
        x = c;
        x.strategy.zero_stage = 1;
        QVERIFY(message(x).starts_with("strategy.zero_stage = 1: must be 0 for a DLRM"));
        x = c;
        x.strategy.emb_placement = EmbeddingPlacement::cached;
        x.strategy.emb_cache_fraction = 0;
        QVERIFY(message(x).starts_with("strategy.emb_cache_fraction = 0: must be > 0 with emb_placement \"cached\""));
        x = c;
        x.strategy.emb_cache_hit_rate = 1.5;
        QVERIFY(message(x).starts_with("strategy.emb_cache_hit_rate = 1.5"));
        // A DLRM ignores the transformer's shape (left at zeros here) and vice versa.
        QCOMPARE(c.model.layers, test::small_gpt_config().model.layers);
        c.model = ModelSpec{};
        QVERIFY(check_config(c).empty());
        Config t = test::small_gpt_config();
        t.dlrm.table_groups = 0;
        QVERIFY(check_config(t).empty());
        // evaluate() refuses what check_config() refuses.
        x.strategy.emb_cache_hit_rate = 1.5;
        QCOMPARE(evaluate(x).reason, Infeasible::invalid_input);
    }

    // Switching the workload keeps the accelerators: a DLRM gets every rank data-parallel (and the
    // MLPerf shape when it has none), a transformer tp 1 pp 1 over all of them.
    void switchingWorkloadKeepsTheAccelerators() {
        Config c = test::small_gpt_config();
        c.strategy.tp = 8;
        c.strategy.pp = 2;
        c.strategy.dp = 2;
        switch_workload(c, Workload::dlrm);
        QCOMPARE(c.workload, Workload::dlrm);
        QCOMPARE(c.strategy.dp, 32);
        QCOMPARE(c.strategy.tp, 1);
        QCOMPARE(c.dlrm, mlperf_dcnv2_dlrm());
        const auto errors = check_config(c);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().message().c_str());
        switch_workload(c, Workload::transformer);
        QCOMPARE(c.strategy.dp, 32);
        QCOMPARE(c.strategy.microbatch, 1);
        QCOMPARE(c.dlrm, mlperf_dcnv2_dlrm());  // kept for switching back
    }

    // The search tries every sharding, placement and state tier (and both overlaps): its best is
    // the fastest feasible evaluate() of them; tables too large for HBM go to the expanded tier,
    // and without a tier nothing fits, with the reason.
    void searchFindsTheFastestPlacement() {
        Config c = dlrm_config(8, 3.5e8, 64, 10);  // 89.6 GB per table: more than 80 GiB of HBM
        c.node.expanded = {4096, 64, 1, ExpandedAttach::per_accelerator, 1};
        const SearchResult sr = search(c);
        QVERIFY(sr.found());
        double best = 1e300;
        for (int sh = 0; sh < 3; ++sh)
            for (int pl = 0; pl < 3; ++pl)
                for (int st = 0; st < 3; ++st)
                    for (const bool ovl : {true, false}) {
                        Config x = c;
                        set_knob(x, Knob::emb_sharding, sh);
                        set_knob(x, Knob::emb_placement, pl);
                        set_knob(x, Knob::emb_state, st);
                        x.strategy.dp_overlap = ovl;
                        const Result r = evaluate(x);
                        if (r.feasible) best = std::min(best, r.iteration_s);
                    }
        QCOMPARE(sr.top.front().result.iteration_s, best);
        QVERIFY(sr.top.front().strategy.emb_placement != EmbeddingPlacement::hbm);
        QCOMPARE(QString::fromStdString(format_strategy(sr.top.front().strategy, Workload::dlrm)).left(3), QStringLiteral("dp8"));
        c.node.expanded = {};
        const SearchResult none = search(c);
        QVERIFY(!none.found());
        const Candidate why = best_or_reason(c, none);
        QCOMPARE(why.result.reason, Infeasible::no_feasible_strategy);
        QCOMPARE(static_cast<Infeasible>(why.result.detail_a), Infeasible::hbm_capacity);
        // Without all_accelerators the search also tries fewer ranks (divisors that split the batch).
        SearchOptions few;
        few.all_accelerators = false;
        c.node.expanded = {4096, 64, 1, ExpandedAttach::per_accelerator, 1};
        QVERIFY(search(c, few).stats.evaluated > search(c).stats.evaluated);
    }

    // A sweep of a DLRM over the tables' size and the tier's bandwidth: every cell is the search of
    // that cell's configuration; bigger tables never run faster, a faster tier never slower.
    void sweepOverTableSizeAndTierBandwidth() {
        Config c = dlrm_config(8, 1e8, 64, 10);
        c.node.expanded = {8192, 32, 1, ExpandedAttach::per_accelerator, 1};
        SweepSpec spec;
        spec.x = {Knob::embedding_gib, {100, 400, 1600}};
        spec.y = Axis{Knob::expanded_gbps, {16, 64, 256}};
        spec.search = true;
        const SweepResult r = run_sweep(c, spec);
        for (int iy = 0; iy < 3; ++iy)
            for (int ix = 0; ix < 3; ++ix) {
                Config x = c;
                set_knob(x, Knob::embedding_gib, spec.x.values[static_cast<std::size_t>(ix)]);
                set_knob(x, Knob::expanded_gbps, spec.y->values[static_cast<std::size_t>(iy)]);
                const Candidate best = best_or_reason(x, search(x));
                QCOMPARE(r.at(ix, iy).result.iteration_s, best.result.iteration_s);
                QCOMPARE(r.at(ix, iy).strategy, best.strategy);
                if (ix > 0) QVERIFY(r.at(ix, iy).result.iteration_s >= r.at(ix - 1, iy).result.iteration_s);
                if (iy > 0) QVERIFY(r.at(ix, iy).result.iteration_s <= r.at(ix, iy - 1).result.iteration_s);
            }
        QVERIFY(r.at(0, 0).result.feasible);
        QCOMPARE(r.at(0, 0).strategy.emb_placement, EmbeddingPlacement::hbm);   // 100 GiB fits in 8 x 80 GiB
        QVERIFY(r.at(2, 0).strategy.emb_placement != EmbeddingPlacement::hbm);  // 1600 GiB does not
    }

    // The shipped MLPerf preset is the built-in shape (the workload switch's starting point), and
    // the 2 TB case study answers its question: with the CXL tier, 4 nodes come within 15 % of 8
    // HBM-only nodes, which 4 HBM-only nodes cannot hold at all.
    void presetsAndTheCaseStudy() {
        const auto preset = load_model_preset(presets_dir() / "models" / "dlrm-dcnv2-mlperf.json");
        QVERIFY2(preset.ok(), preset.error_text().c_str());
        QCOMPARE(preset.value->workload, Workload::dlrm);
        QCOMPARE(preset.value->dlrm, mlperf_dcnv2_dlrm());
        const auto big = load_model_preset(presets_dir() / "models" / "dlrm-synthetic-2tb.json");
        QVERIFY2(big.ok(), big.error_text().c_str());
        QVERIFY(units::bytes_to_gib(dlrm_embedding_bytes(big.value->dlrm)) > 1500);
        const auto sc = load_scenario_file(presets_dir() / "scenarios" / "dlrm-2tb-memory-expansion.comet.json");
        QVERIFY2(sc.ok(), sc.error_text().c_str());
        QCOMPARE(sc.value->config.dlrm, big.value->dlrm);
        const Comparison cmp = compare_designs(*sc.value);
        QCOMPARE(cmp.designs.size(), std::size_t{4});
        const Result& cxl4 = cmp.designs[1].result;
        const Result& hbm4 = cmp.designs[2].result;
        const Result& hbm8 = cmp.designs[3].result;
        QVERIFY(cxl4.feasible && hbm8.feasible);
        QVERIFY(!hbm4.feasible);
        QVERIFY2(cxl4.iteration_s < 1.15 * hbm8.iteration_s, qPrintable(QString::number(cxl4.iteration_s / hbm8.iteration_s)));
        QVERIFY(cmp.designs[1].config.strategy.emb_placement != EmbeddingPlacement::hbm);
    }

    // Growing the tables to a byte total keeps their proportions (the sweeps' table-size axis).
    void scalingTheTables() {
        DlrmSpec d = mlperf_dcnv2_dlrm();
        const double before = dlrm_embedding_bytes(d);
        dlrm_scale_embedding_bytes(d, 2 * before);
        QVERIFY(relative(dlrm_embedding_bytes(d), 2 * before) < 1e-6);
        QCOMPARE(d.tables[0].rows, 80000000.0);
        QCOMPARE(d.tables[5].rows, 6.0);
        dlrm_scale_embedding_bytes(d, 1);  // never below one row
        QCOMPARE(d.tables[5].rows, 1.0);
    }
};

QTEST_APPLESS_MAIN(TestDlrm)
#include "test_dlrm.moc"
