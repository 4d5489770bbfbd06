#include "comet/dlrm.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/evaluate.hpp"
#include "comet/memory.hpp"
#include "comet/units.hpp"
#include "comet/workload.hpp"
#include "model/stages.hpp"

namespace comet {
namespace {

constexpr double activation_bytes = 2.0;  // 16-bit activations, pooled vectors and their gradients
constexpr double index_bytes = 8.0;       // TorchRec's KeyedJaggedTensor carries int64 indices
// A gather moves whole sectors from HBM (32 B, the L2 sector) and whole cache lines over a
// PCIe/CXL link (64 B): a row segment of 24 B costs 32 B from HBM and 64 B over the link.
constexpr double hbm_sector_bytes = 32.0;
constexpr double link_line_bytes = 64.0;
// FBGEMM's backward sorts the iteration's indices by row (a radix sort: about four passes that
// read and write an index and its position) before it aggregates each row's gradient.
constexpr double sort_bytes_per_lookup = 4.0 * 2.0 * index_bytes;

double granular(double bytes, double granule) noexcept { return std::ceil(bytes / granule) * granule; }

// ---- table-wise placement: greedy longest-processing-time assignment ---------------------------
// Items are tables, `count` of `size` each, taken in descending size, each onto the least-loaded
// rank (TorchRec's greedy planner balances this way). The ranks' loads are kept as levels
// (load, ranks at that load), so identical tables are placed in bulk: a group adds at most one
// level, and the loop per group runs once per level it passes.
struct Item {
    double size = 0;
    double count = 0;
};
using Items = std::array<Item, DlrmSpec::max_table_groups>;

double greedy_max_load(Items items, int n, double ranks) noexcept {
    std::sort(items.begin(), items.begin() + n, [](const Item& a, const Item& b) { return a.size > b.size; });
    struct Level {
        double load = 0, ranks = 0;
    };
    constexpr int cap = 2 * DlrmSpec::max_table_groups + 2;
    std::array<Level, cap> lv{};
    int nl = 1;
    lv[0] = {0.0, ranks};
    // Put `level` back in ascending order (it only rises), merging equal loads.
    auto settle = [&](Level level) {
        int i = 0;
        while (i < nl && lv[static_cast<std::size_t>(i)].load < level.load) ++i;
        if (i < nl && lv[static_cast<std::size_t>(i)].load == level.load) {
            lv[static_cast<std::size_t>(i)].ranks += level.ranks;
            return;
        }
        if (nl == cap) {  // cannot happen with at most one level per group; stay conservative
            lv[static_cast<std::size_t>(nl - 1)].load = std::max(lv[static_cast<std::size_t>(nl - 1)].load, level.load);
            lv[static_cast<std::size_t>(nl - 1)].ranks += level.ranks;
            return;
        }
        for (int j = nl; j > i; --j) lv[static_cast<std::size_t>(j)] = lv[static_cast<std::size_t>(j - 1)];
        lv[static_cast<std::size_t>(i)] = level;
        ++nl;
    };
    auto pop_lowest = [&]() {
        const Level low = lv[0];
        for (int j = 1; j < nl; ++j) lv[static_cast<std::size_t>(j - 1)] = lv[static_cast<std::size_t>(j)];
        --nl;
        return low;
    };
    for (int g = 0; g < n; ++g) {
        const double s = items[static_cast<std::size_t>(g)].size;
        double left = items[static_cast<std::size_t>(g)].count;
        if (!(s > 0) || !(left > 0)) continue;
        while (left > 0) {
            Level low = pop_lowest();
            // Rounds (one table per rank of the level) until the level reaches the next one.
            const double rounds_to_next =
                nl > 0 ? std::max(1.0, std::ceil((lv[0].load - low.load) / s)) : std::numeric_limits<double>::infinity();
            const double full = std::floor(left / low.ranks);
            if (full >= rounds_to_next) {
                low.load += rounds_to_next * s;
                left -= rounds_to_next * low.ranks;
                settle(low);
                continue;
            }
            const double rest = left - full * low.ranks;  // fewer tables than ranks at this level
            low.load += full * s;
            left = 0;
            if (rest > 0) {
                settle({low.load + s, rest});
                low.ranks -= rest;
            }
            if (low.ranks > 0) settle(low);
        }
    }
    return lv[static_cast<std::size_t>(nl - 1)].load;
}

}  // namespace

DlrmRankShare dlrm_rank_share(const DlrmSpec& d, EmbeddingSharding sharding, double batch, double ranks) noexcept {
    const double eb = embedding_dtype_bytes(d.embedding_dtype);
    // Totals over every table, each split into `split` column shards (column-wise: one per rank).
    DlrmRankShare total;
    Items cost{}, memory{}, width{};
    const double split = sharding == EmbeddingSharding::column_wise ? ranks : 1.0;
    const int groups = std::clamp(d.table_groups, 0, DlrmSpec::max_table_groups);
    for (int g = 0; g < groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        const double cols = t.dim / split;
        const double seg = cols * eb;
        const double state = embedding_state_bytes_per_row(d.table_optimizer, cols);
        const double reads = batch * t.pooling;  // per table (and per column shard)
        const double shards = t.count * split;
        total.lookups += shards * reads;
        total.hbm_lookup += shards * reads * granular(seg, hbm_sector_bytes);
        total.link_lookup += shards * reads * granular(seg, link_line_bytes);
        total.pooled_elems += shards * reads * cols;
        total.state_lookup += shards * reads * state;
        total.rows_bytes += shards * t.rows * seg;
        total.state_bytes += shards * t.rows * state;
        total.out_width += shards * cols;
        const auto i = static_cast<std::size_t>(g);
        cost[i] = {reads * granular(seg, hbm_sector_bytes), shards};
        memory[i] = {t.rows * (seg + state), shards};
        width[i] = {cols, shards};
    }
    // Imbalance of the busiest rank over the mean: the greedy planner's (table-wise); column and
    // row shards split every table evenly.
    double f_cost = 1, f_memory = 1, f_width = 1;
    if (sharding == EmbeddingSharding::table_wise) {
        auto factor = [&](const Items& items, double sum) { return sum > 0 ? greedy_max_load(items, groups, ranks) / (sum / ranks) : 1.0; };
        f_cost = factor(cost, total.hbm_lookup);
        f_memory = factor(memory, total.rows_bytes + total.state_bytes);
        f_width = factor(width, total.out_width);
    }
    DlrmRankShare s;
    s.lookups = total.lookups / ranks * f_cost;
    s.hbm_lookup = total.hbm_lookup / ranks * f_cost;
    s.link_lookup = total.link_lookup / ranks * f_cost;
    s.pooled_elems = total.pooled_elems / ranks * f_cost;
    s.state_lookup = total.state_lookup / ranks * f_cost;
    s.rows_bytes = total.rows_bytes / ranks * f_memory;
    s.state_bytes = total.state_bytes / ranks * f_memory;
    // Row-wise: every rank sums its rows' part of every table's pooled vector (partial sums for
    // the reduce-scatter); table- and column-wise: its own tables' or columns' vectors.
    s.out_width = sharding == EmbeddingSharding::row_wise ? total.out_width : total.out_width / ranks * f_width;
    s.imbalance = f_cost;
    return s;
}

namespace {

// ---- the dense part: bottom MLP, interaction, top MLP ---------------------------------------------
struct DenseTimes {
    double bottom_fwd = 0, bottom_bwd = 0, inter_fwd = 0, inter_bwd = 0, top_fwd = 0, top_bwd = 0;
    double activations = 0;  // bytes held for backward
};

struct PhaseCost {
    double device = 0, host = 0;
    void add(const PassCost& p, OpKind kind, const ComputeRates& r) noexcept {
        device += pass_time_s(p, kind, r);
        host += host_issue_s(p, r);
    }
    // A pass is never faster than the host can issue its kernels.
    [[nodiscard]] double time() const noexcept { return std::max(device, host); }
};

DenseTimes dense_times(const DlrmSpec& d, const TrainingSpec& tr, double b, const ComputeRates& r) noexcept {
    const double e = activation_bytes;
    const double in = gemm_operand_bytes(tr.precision);
    PhaseCost bf, bb, inf, inb, tf, tb;
    DenseTimes t;
    auto mlp = [&](const std::array<int, DlrmSpec::max_mlp_layers>& widths, int layers, double width_in, PhaseCost& f, PhaseCost& bw,
                   bool last_is_logit) {
        double k = width_in;
        for (int i = 0; i < layers; ++i) {
            const double n = widths[static_cast<std::size_t>(i)];
            const Op g = gemm_op(1.0, b, n, k, true, in);
            f.add(g.fwd, g.kind, r);
            bw.add(g.bwd, g.kind, r);
            // ReLU (or the sigmoid and loss after the logit).
            const Op act = elementwise_op(b * n, 2.0 * e, 3.0 * e, last_is_logit && i == layers - 1 ? 8.0 : 1.0);
            f.add(act.fwd, act.kind, r);
            bw.add(act.bwd, act.kind, r);
            t.activations += b * (k + n) * e;  // the GEMM's input and the activation's input
            k = n;
        }
    };
    mlp(d.bottom_mlp, d.bottom_layers, d.dense_features, bf, bb, false);
    // Interaction.
    const double bottom = dlrm_bottom_width(d);
    const double pooled = dlrm_pooled_width(d);
    const Op cat = elementwise_op(b * (bottom + pooled), 2.0 * e, 2.0 * e, 0.0);  // assemble the vectors
    inf.add(cat.fwd, cat.kind, r);
    inb.add(cat.bwd, cat.kind, r);
    t.activations += b * (bottom + pooled) * e;
    if (d.interaction == DlrmInteraction::dot) {
        const double vectors = dlrm_table_count(d) + (bottom > 0 ? 1.0 : 0.0);
        const double dim = d.table_groups > 0 ? d.tables[0].dim : 0.0;
        const Op z = gemm_op(b, vectors, vectors, dim, false, e);  // X X^T per sample
        inf.add(z.fwd, z.kind, r);
        inb.add(z.bwd, z.kind, r);
        const double pairs = vectors * (vectors - 1.0) / 2.0;
        const Op tri = elementwise_op(b * pairs, 2.0 * e, 2.0 * e, 0.0);  // the upper triangle, beside the bottom output
        inf.add(tri.fwd, tri.kind, r);
        inb.add(tri.bwd, tri.kind, r);
        t.activations += b * vectors * vectors * e;
    } else {
        const double w0 = bottom + pooled;
        for (int l = 0; l < d.cross_layers; ++l) {
            if (d.cross_rank > 0) {
                const Op v = gemm_op(1.0, b, d.cross_rank, w0, true, in);
                const Op u = gemm_op(1.0, b, w0, d.cross_rank, true, in);
                for (const Op* o : {&v, &u}) {
                    inf.add(o->fwd, o->kind, r);
                    inb.add(o->bwd, o->kind, r);
                }
                t.activations += b * d.cross_rank * e;
            } else {
                const Op w = gemm_op(1.0, b, w0, w0, true, in);
                inf.add(w.fwd, w.kind, r);
                inb.add(w.bwd, w.kind, r);
            }
            // x0 * (. + bias) + x_l: reads x0, x_l and the product, writes x_{l+1}.
            const Op mix = elementwise_op(b * w0, 4.0 * e, 6.0 * e, 3.0);
            inf.add(mix.fwd, mix.kind, r);
            inb.add(mix.bwd, mix.kind, r);
            t.activations += 2.0 * b * w0 * e;
        }
    }
    mlp(d.top_mlp, d.top_layers, dlrm_interaction_width(d), tf, tb, true);
    t.bottom_fwd = bf.time();
    t.bottom_bwd = bb.time();
    t.inter_fwd = inf.time();
    t.inter_bwd = inb.time();
    t.top_fwd = tf.time();
    t.top_bwd = tb.time();
    return t;
}

// Bytes per iteration of one kind of access on each tier.
struct TierBytes {
    double hbm = 0, link_read = 0, link_write = 0;
};

}  // namespace

// ---- shape ------------------------------------------------------------------------------------

double dlrm_table_count(const DlrmSpec& d) noexcept {
    double n = 0;
    for (int g = 0; g < d.table_groups; ++g) n += d.tables[static_cast<std::size_t>(g)].count;
    return n;
}

double dlrm_embedding_rows(const DlrmSpec& d) noexcept {
    double n = 0;
    for (int g = 0; g < d.table_groups; ++g) n += d.tables[static_cast<std::size_t>(g)].count * d.tables[static_cast<std::size_t>(g)].rows;
    return n;
}

double dlrm_embedding_parameters(const DlrmSpec& d) noexcept {
    double n = 0;
    for (int g = 0; g < d.table_groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        n += t.count * t.rows * t.dim;
    }
    return n;
}

double dlrm_embedding_bytes(const DlrmSpec& d) noexcept { return dlrm_embedding_parameters(d) * embedding_dtype_bytes(d.embedding_dtype); }

double dlrm_pooled_width(const DlrmSpec& d) noexcept {
    double n = 0;
    for (int g = 0; g < d.table_groups; ++g) n += d.tables[static_cast<std::size_t>(g)].count * d.tables[static_cast<std::size_t>(g)].dim;
    return n;
}

double dlrm_lookups_per_sample(const DlrmSpec& d) noexcept {
    double n = 0;
    for (int g = 0; g < d.table_groups; ++g)
        n += d.tables[static_cast<std::size_t>(g)].count * d.tables[static_cast<std::size_t>(g)].pooling;
    return n;
}

double dlrm_bottom_width(const DlrmSpec& d) noexcept {
    return d.bottom_layers > 0 ? d.bottom_mlp[static_cast<std::size_t>(d.bottom_layers - 1)] : d.dense_features;
}

double dlrm_interaction_width(const DlrmSpec& d) noexcept {
    const double bottom = dlrm_bottom_width(d);
    if (d.interaction == DlrmInteraction::dcn) return bottom + dlrm_pooled_width(d);
    const double vectors = dlrm_table_count(d) + (bottom > 0 ? 1.0 : 0.0);
    return bottom + vectors * (vectors - 1.0) / 2.0;
}

namespace {
double mlp_parameters(const std::array<int, DlrmSpec::max_mlp_layers>& widths, int layers, double in) noexcept {
    double n = 0;
    for (int i = 0; i < layers; ++i) {
        const double out = widths[static_cast<std::size_t>(i)];
        n += in * out + out;
        in = out;
    }
    return n;
}
double mlp_flops(const std::array<int, DlrmSpec::max_mlp_layers>& widths, int layers, double in) noexcept {
    double n = 0;
    for (int i = 0; i < layers; ++i) {
        const double out = widths[static_cast<std::size_t>(i)];
        n += 2.0 * in * out;
        in = out;
    }
    return n;
}
}  // namespace

double dlrm_mlp_parameters(const DlrmSpec& d) noexcept {
    double n = mlp_parameters(d.bottom_mlp, d.bottom_layers, d.dense_features);
    if (d.interaction == DlrmInteraction::dcn) {
        const double w0 = dlrm_interaction_width(d);
        const double per_layer = d.cross_rank > 0 ? 2.0 * w0 * d.cross_rank + w0 : w0 * w0 + w0;
        n += d.cross_layers * per_layer;
    }
    return n + mlp_parameters(d.top_mlp, d.top_layers, dlrm_interaction_width(d));
}

double dlrm_forward_flops_per_sample(const DlrmSpec& d) noexcept {
    double f = mlp_flops(d.bottom_mlp, d.bottom_layers, d.dense_features) + mlp_flops(d.top_mlp, d.top_layers, dlrm_interaction_width(d));
    if (d.interaction == DlrmInteraction::dot) {
        const double vectors = dlrm_table_count(d) + (dlrm_bottom_width(d) > 0 ? 1.0 : 0.0);
        const double dim = d.table_groups > 0 ? d.tables[0].dim : 0.0;
        f += 2.0 * vectors * vectors * dim;
    } else {
        const double w0 = dlrm_interaction_width(d);
        f += d.cross_layers * (d.cross_rank > 0 ? 4.0 * w0 * d.cross_rank : 2.0 * w0 * w0);
    }
    return f;
}

DlrmSpec mlperf_dcnv2_dlrm() noexcept {
    static constexpr double rows[26] = {40000000, 39060,    17295,    7424,     20265,  3,     7122, 1543, 63,
                                        40000000, 3067956,  405282,   10,       2209,   11938, 155,  4,    976,
                                        14,       40000000, 40000000, 40000000, 590152, 12973, 108,  36};
    static constexpr double hot[26] = {3, 2, 1, 2, 6, 1, 1, 1, 1, 7, 3, 8, 1, 6, 9, 5, 1, 1, 1, 12, 100, 27, 10, 3, 1, 1};
    DlrmSpec d;
    d.table_groups = 26;
    for (std::size_t i = 0; i < 26; ++i) d.tables[i] = {1, rows[i], 128, hot[i]};
    d.dense_features = 13;
    d.bottom_layers = 3;
    d.bottom_mlp[0] = 512;
    d.bottom_mlp[1] = 256;
    d.bottom_mlp[2] = 128;
    d.top_layers = 5;
    d.top_mlp[0] = 1024;
    d.top_mlp[1] = 1024;
    d.top_mlp[2] = 512;
    d.top_mlp[3] = 256;
    d.top_mlp[4] = 1;
    d.interaction = DlrmInteraction::dcn;
    d.cross_layers = 3;
    d.cross_rank = 512;
    d.embedding_dtype = EmbeddingDtype::fp32;
    d.table_optimizer = EmbeddingOptimizer::rowwise_adagrad;
    return d;
}

void switch_workload(Config& c, Workload w) noexcept {
    if (c.workload == w) return;
    const Strategy before = c.strategy;
    Strategy& s = c.strategy;
    s = Strategy{};
    s.dp = static_cast<int>(std::clamp<long long>(accelerators_used(before), 1, 10'000'000));
    s.dp_overlap = before.dp_overlap;
    s.emb_sharding = before.emb_sharding;
    s.emb_placement = before.emb_placement;
    s.emb_cache_fraction = before.emb_cache_fraction;
    s.emb_cache_hit_rate = before.emb_cache_hit_rate;
    s.emb_state = before.emb_state;
    c.workload = w;
    if (w == Workload::dlrm && c.dlrm.table_groups == 0) c.dlrm = mlperf_dcnv2_dlrm();
}

void dlrm_scale_embedding_bytes(DlrmSpec& d, double bytes) noexcept {
    const double now = dlrm_embedding_bytes(d);
    if (!(now > 0) || !(bytes > 0) || !std::isfinite(bytes)) return;
    const double f = bytes / now;
    for (int g = 0; g < d.table_groups; ++g) {
        EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        t.rows = std::max(1.0, std::round(t.rows * f));
    }
}

// ---- evaluation ---------------------------------------------------------------------------------

Infeasible dlrm_problem(const Config& c, double& a, double& b) noexcept {
    const Strategy& s = c.strategy;
    const DlrmSpec& d = c.dlrm;
    if (accelerators_used(s) > accelerators_available(c)) {
        a = static_cast<double>(accelerators_used(s));
        b = static_cast<double>(accelerators_available(c));
        return Infeasible::too_many_accelerators;
    }
    if (c.training.global_batch % s.dp != 0) {
        a = s.dp;
        b = static_cast<double>(c.training.global_batch);
        return Infeasible::batch_split;
    }
    if (s.emb_sharding == EmbeddingSharding::column_wise)
        for (int g = 0; g < d.table_groups; ++g)
            if (d.tables[static_cast<std::size_t>(g)].dim % s.dp != 0) {
                a = s.dp;
                b = d.tables[static_cast<std::size_t>(g)].dim;
                return Infeasible::dlrm_column_split;
            }
    if (is_fp8(c.training.precision) && !(c.node.matrix_fp8_tflops > 0)) return Infeasible::fp8_unsupported;
    if (is_fp4(c.training.precision) && !(c.node.matrix_fp4_tflops > 0)) return Infeasible::fp4_unsupported;
    const bool needs_tier = s.emb_placement != EmbeddingPlacement::hbm || s.emb_state == EmbeddingStateTier::expanded;
    if (needs_tier && !(c.node.expanded.capacity_gib > 0)) return Infeasible::offload_without_tier;
    return Infeasible::none;
}

namespace {

// The tables' work on the busiest rank: lookups and fused-optimizer updates on HBM and on the
// expanded tier's link, and the hot-row cache's fill.
struct TableWork {
    double index_in = 0;          // indices the rank reads
    double pooled_out_bytes = 0;  // the whole batch's pooled vectors of its shards
    double lookup_hbm = 0, update_hbm = 0, lookup_link = 0, update_link = 0;
    double fill = 0;  // the cache fill for the next batch
};

TableWork table_work(const Config& c, const DlrmRankShare& sh, const ComputeRates& rates, const ExpandedShare& xs) noexcept {
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    const double n = s.dp;
    const double batch = static_cast<double>(c.training.global_batch);
    const double e = activation_bytes;
    TableWork w;
    const double unique = d.unique_rows_fraction;
    w.index_in = s.emb_sharding == EmbeddingSharding::row_wise ? batch * dlrm_lookups_per_sample(d) / n : sh.lookups;
    w.pooled_out_bytes = batch * sh.out_width * e;
    const bool rows_in_hbm = s.emb_placement != EmbeddingPlacement::expanded;  // HBM or (after the prefetch) its cache
    const bool state_on_link = s.emb_state == EmbeddingStateTier::expanded ||
                               (s.emb_state == EmbeddingStateTier::with_rows && s.emb_placement == EmbeddingPlacement::expanded);
    // Forward: read the indices and the rows, sum them, write the pooled vectors (one TBE kernel).
    TierBytes fwd;
    fwd.hbm = w.index_in * index_bytes + w.pooled_out_bytes + (rows_in_hbm ? sh.hbm_lookup : 0.0);
    if (!rows_in_hbm) fwd.link_read = sh.link_lookup;
    // Backward with the fused optimizer: read the pooled gradients, sort the indices, then for
    // every distinct row read and write the row and its state.
    TierBytes bwd;
    bwd.hbm = w.pooled_out_bytes + sh.lookups * sort_bytes_per_lookup;
    if (rows_in_hbm) {
        bwd.hbm += 2.0 * sh.hbm_lookup * unique;
    } else {
        bwd.link_read += sh.link_lookup * unique;
        bwd.link_write += sh.link_lookup * unique;
    }
    const double state_rw = sh.state_lookup * unique;
    if (state_on_link) {
        bwd.link_read += state_rw;
        bwd.link_write += state_rw;
    } else {
        bwd.hbm += 2.0 * state_rw;
    }
    const double link_bps = xs.bytes_per_s > 0 ? xs.bytes_per_s : std::numeric_limits<double>::infinity();
    auto link_time = [&](const TierBytes& t) {
        const double bytes = std::max(t.link_read, t.link_write);  // the two directions work at once
        return bytes > 0 ? bytes / link_bps + xs.latency_s : 0.0;
    };
    w.lookup_hbm = pass_time_s({sh.pooled_elems, fwd.hbm, 1.0}, OpKind::elementwise, rates);
    w.update_hbm = pass_time_s({2.0 * sh.pooled_elems, bwd.hbm, 2.0}, OpKind::elementwise, rates);
    w.lookup_link = link_time(fwd);
    w.update_link = link_time(bwd);
    // The hot-row cache: before each lookup the missed distinct rows (and, with them, their
    // state) are fetched into HBM and as many evicted rows written back; TorchRec's prefetch
    // pipeline runs it behind the previous iteration's dense work.
    if (s.emb_placement == EmbeddingPlacement::cached && s.emb_cache_hit_rate < 1.0) {
        const double misses = (1.0 - s.emb_cache_hit_rate) * unique;
        TierBytes f;
        f.link_read = misses * (sh.link_lookup + (s.emb_state == EmbeddingStateTier::with_rows ? sh.state_lookup : 0.0));
        f.link_write = f.link_read;
        const double hbm_side = pass_time_s({0.0, 2.0 * misses * (sh.hbm_lookup + sh.state_lookup), 2.0}, OpKind::elementwise, rates);
        w.fill = std::max(link_time(f), hbm_side);
    }
    return w;
}

// The exchanges over every rank (all ranks form one group): the indices, the pooled vectors
// forward and their gradients backward, the MLPs' gradient all-reduce.
struct DlrmExchanges {
    double index = 0, fwd = 0, bwd = 0, allreduce = 0;
};

DlrmExchanges dlrm_exchanges(const Config& c, const TableWork& tw, const StateBytes& sb, double mlp_params) noexcept {
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    const double batch = static_cast<double>(c.training.global_batch);
    const double b = batch / s.dp;  // samples per rank
    const GroupSpan all = span_group(s.dp, 1, c.node, c.cluster.nodes);
    const double per_sample_indices = dlrm_lookups_per_sample(d) * index_bytes;
    DlrmExchanges x;
    x.index = s.emb_sharding == EmbeddingSharding::column_wise ? all_gather_s(batch * per_sample_indices, all)
                                                               : all_to_all_s(b * per_sample_indices, all);
    if (s.emb_sharding == EmbeddingSharding::row_wise) {
        const double partial = batch * dlrm_pooled_width(d) * activation_bytes;
        x.fwd = reduce_scatter_s(partial, all);  // partial sums to the samples' ranks
        x.bwd = all_gather_s(partial, all);      // every rank needs every sample's gradient
    } else {
        x.fwd = all_to_all_s(tw.pooled_out_bytes, all);
        x.bwd = x.fwd;
    }
    x.allreduce = all_reduce_s(mlp_params * sb.gradients, span_group(s.dp, 1, c.node, c.cluster.nodes, c.software));
    return x;
}

// Memory per tier and the verdict: the MLPs' states, the rows and their optimizer state where
// the placement puts them, what backward holds, the buffers.
void dlrm_memory(const Config& c, const DlrmRankShare& sh, const TableWork& tw, const DenseTimes& dt, const StateBytes& sb,
                 double mlp_params, const ExpandedShare& xs, Result& r) noexcept {
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    const double b = static_cast<double>(c.training.global_batch) / s.dp;
    const double e = activation_bytes;
    const double capacity = units::gib_to_bytes(c.node.hbm_capacity_gib);
    r.hbm.capacity_bytes = capacity;
    r.hbm.margin_bytes = c.software.hbm_allocator_margin * capacity;
    r.hbm.weights_bytes = mlp_params * sb.weights;
    r.hbm.gradients_bytes = mlp_params * sb.gradients;
    r.hbm.optimizer_bytes = mlp_params * sb.optimizer;
    const double cached = s.emb_placement == EmbeddingPlacement::cached ? s.emb_cache_fraction : 0.0;
    const double rows_hbm = s.emb_placement == EmbeddingPlacement::hbm ? sh.rows_bytes : cached * sh.rows_bytes;
    double state_hbm = 0, state_ex = 0;
    switch (s.emb_state) {
        case EmbeddingStateTier::hbm:
            state_hbm = sh.state_bytes;
            break;
        case EmbeddingStateTier::expanded:
            state_ex = sh.state_bytes;
            break;
        case EmbeddingStateTier::with_rows:
            if (s.emb_placement == EmbeddingPlacement::hbm)
                state_hbm = sh.state_bytes;
            else {
                state_ex = sh.state_bytes;
                state_hbm = cached * sh.state_bytes;
            }
            break;
    }
    r.hbm.weights_bytes += rows_hbm;
    r.hbm.optimizer_bytes += state_hbm;
    // Held for backward: the MLPs' and the interaction's activations, the pooled vectors received
    // and, on the tables' side, the pooled outputs and the indices (kept for the update).
    r.hbm.activations_bytes = dt.activations + b * dlrm_pooled_width(d) * e + tw.pooled_out_bytes + tw.index_in * index_bytes;
    // The exchanges' send and receive buffers, the backward's sort buffers, the runtime.
    r.hbm.other_bytes = units::gib_to_bytes(c.software.hbm_reserved_gib) + tw.pooled_out_bytes + b * dlrm_pooled_width(d) * e +
                        2.0 * tw.index_in * index_bytes;
    r.expanded.capacity_bytes = xs.capacity_bytes;
    r.expanded.weights_bytes = s.emb_placement != EmbeddingPlacement::hbm ? sh.rows_bytes : 0.0;
    r.expanded.optimizer_bytes = state_ex;
    capacity_verdict(r, r.expanded.used_bytes(), xs.capacity_bytes);
}

// Parameters, FLOPs and the throughput metrics.
void dlrm_totals(const Config& c, double mlp_params, Result& r) noexcept {
    const DlrmSpec& d = c.dlrm;
    const double n = c.strategy.dp;
    const double batch = static_cast<double>(c.training.global_batch);
    r.parameters = dlrm_embedding_parameters(d) + mlp_params;
    r.active_parameters = mlp_params;
    for (int g = 0; g < d.table_groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        r.active_parameters += t.count * std::min(t.pooling, t.rows) * t.dim;
    }
    r.model_flops = 3.0 * batch * dlrm_forward_flops_per_sample(d);
    r.model_flops_causal = r.model_flops;  // no attention
    r.hardware_flops = r.model_flops;
    if (r.iteration_s > 0) {
        r.tokens_per_s = batch / r.iteration_s;
        r.model_tflops_per_gpu = units::flops_to_tflops(r.model_flops / (r.iteration_s * n));
        r.hardware_tflops_per_gpu = r.model_tflops_per_gpu;
        const double peak = matrix_peak_tflops(c.node, c.training.precision);
        r.mfu = model_flops_utilization(r.model_flops, r.iteration_s, n, peak);
        r.mfu_causal = r.mfu;
    }
}

}  // namespace

Result evaluate_dlrm(const Config& c) noexcept {
    double a = 0, b_detail = 0;
    if (const Infeasible why = dlrm_problem(c, a, b_detail); why != Infeasible::none) return infeasible(why, a, b_detail);
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    const ComputeRates rates = compute_rates(c.node, c.training, c.software);
    const ExpandedShare xs = expanded_share(c.node);
    const double batch = static_cast<double>(c.training.global_batch);
    const double b = batch / s.dp;  // samples per rank

    const DlrmRankShare sh = dlrm_rank_share(d, s.emb_sharding, batch, s.dp);
    const TableWork tw = table_work(c, sh, rates, xs);
    const DenseTimes dt = dense_times(d, c.training, b, rates);
    const double dense = dt.bottom_fwd + dt.inter_fwd + dt.top_fwd + dt.top_bwd + dt.inter_bwd + dt.bottom_bwd;
    const StateBytes sb = state_bytes_per_parameter(c.training, c.software);
    const double mlp_params = dlrm_mlp_parameters(d);
    const DlrmExchanges x = dlrm_exchanges(c, tw, sb, mlp_params);

    // ---- composition (docs/model.md, "DLRM"). Forward: the lookup, then the pooled vectors
    // travel while the bottom MLP runs, and the interaction waits for both. Backward: the top
    // MLP and the interaction, then the pooled gradients travel while the bottom MLP's backward
    // runs, and the row update waits for them. The network is otherwise idle during the
    // interaction and the top MLP: the next batch's indices travel there (TorchRec's pipelined
    // input distribution); the MLPs' gradient all-reduce runs behind the backward after the top
    // MLP. The cache fill for the next batch uses the expanded tier's link, another resource, on
    // a stream of its own: it hides behind everything else the iteration does.
    const double lookup_fwd = std::max(tw.lookup_hbm, tw.lookup_link);
    const double update = std::max(tw.update_hbm, tw.update_link);
    const double fwd_comm = exposed_comm_s(x.fwd, dt.bottom_fwd, 1.0);
    const double bwd_comm = exposed_comm_s(x.bwd, dt.bottom_bwd, 1.0);
    const double index_comm = exposed_comm_s(x.index, dt.inter_fwd + dt.top_fwd + dt.top_bwd, 1.0);
    const double ar_window = dt.inter_bwd + std::max(dt.bottom_bwd, x.bwd) + update;
    const double allreduce = exposed_comm_s(x.allreduce, ar_window, s.dp_overlap ? 1.0 : 0.0);
    const double optimizer = mlp_params * optimizer_step_bytes_per_parameter(sb) / rates.hbm_bytes_per_s + rates.launch_s;
    const double without_fill = dense + lookup_fwd + update + fwd_comm + bwd_comm + index_comm + allreduce + optimizer;

    Result r;
    r.time.compute_s = dense;
    r.time.lookup_s = tw.lookup_hbm + tw.update_hbm;
    r.time.memory_s = (lookup_fwd - tw.lookup_hbm) + (update - tw.update_hbm) + exposed_comm_s(tw.fill, without_fill, 1.0);
    r.time.emb_comm_s = fwd_comm + bwd_comm + index_comm;
    r.time.dp_comm_s = allreduce;
    r.time.optimizer_s = optimizer;
    r.iteration_s = r.time.total();
    r.comm.emb_s = x.index + x.fwd + x.bwd;
    r.comm.dp_s = x.allreduce;
    r.comm.memory_s = tw.lookup_link + tw.update_link + tw.fill;
    r.microbatches = 1;

    dlrm_memory(c, sh, tw, dt, sb, mlp_params, xs, r);
    dlrm_totals(c, mlp_params, r);
    return r;
}

}  // namespace comet
