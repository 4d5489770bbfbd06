// Fitting the per-op rate model on a measured per-op table, and the model-vs-measured summary
// (docs/model.md, "Per-op rates from measurements").
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "comet/compute.hpp"
#include "comet/op_table.hpp"
#include "comet/workload.hpp"

namespace comet::ops {
namespace {

// --- The measurement method's busy windows (method_sweep.py) ------------------------------------

// reps_for(flops, rate): back-to-back kernels per graph replay, aiming at 2 ms of work.
double reps_for(double flops, double nominal_flops_per_s) {
    const double per = std::max(flops / nominal_flops_per_s, 1e-7);
    return std::clamp(std::floor(2e-3 / per), 3.0, 200.0);
}

constexpr int replays = 3;  // timed replays, back to back

// --- Losses and the coordinate search ----------------------------------------------------------

constexpr double infeasible_penalty = 10;  // |ln error| charged for a row the model refuses
// A row's |ln error| counts up to ln 1.3: rows the model does not describe (an anomalous timing, a
// kernel choice the model does not know) do not pull the parameters that describe the others.
const double error_cap = std::log(1.3);

double log_error(const OpTime& t, double measured_s) {
    if (!t.ok() || !(t.time_s > 0)) return infeasible_penalty;
    return std::min(std::abs(std::log(t.time_s / measured_s)), error_cap);
}

struct Knob {
    const char* name;
    std::function<void(OpRateModel&, double)> set;
    std::vector<double> grid;
    // Searched jointly with this one over the product of the grids, for parameters that trade
    // against each other (a fraction and a cost): nullptr for none.
    std::function<void(OpRateModel&, double)> set2 = nullptr;
    std::vector<double> grid2 = {};
};

std::vector<double> range(double lo, double hi, double step) {
    std::vector<double> v;
    for (int i = 0;; ++i) {
        const double x = lo + i * step;
        if (x > hi + step * 1e-6) break;
        v.push_back(x);
    }
    return v;
}

// Coordinate search: each knob in turn takes the grid value with the lowest loss (the first of
// equals, so the result does not depend on anything but the table); sweeps until no knob moves.
void coordinate_search(OpRateModel& m, const std::vector<Knob>& knobs, const std::function<double(const OpRateModel&)>& loss) {
    double best = loss(m);
    for (int sweep = 0; sweep < 8; ++sweep) {
        bool moved = false;
        for (const Knob& k : knobs) {
            const std::vector<double> none{0};
            for (double v : k.grid) {
                for (double w : k.set2 ? k.grid2 : none) {
                    OpRateModel trial = m;
                    k.set(trial, v);
                    if (k.set2) k.set2(trial, w);
                    const double l = loss(trial);
                    if (l < best - 1e-12) {
                        best = l;
                        m = trial;
                        moved = true;
                    }
                }
            }
        }
        if (!moved) break;
    }
}

// --- Rows ---------------------------------------------------------------------------------------

double gemm_flops(const GemmRow& r) { return 2.0 * double(r.m) * double(r.n) * double(r.k); }
double grouped_flops(const GroupedShape& s) { return 2.0 * double(s.experts * s.tokens_per_expert) * double(s.n) * double(s.k); }
double copy_bytes(const HbmRow& r) { return r.mib * double(1 << 20); }

OpTime model_gemm_row(const OpRateModel& m, const GemmRow& r, OpFamily f) {
    if (f == OpFamily::wgrad_bf16)  // dW[N,K] = dY[M,N]^T X[M,K]: output N x K, inner M (tokens)
        return gemm_time(m, GemmShape{r.n, r.k, r.m, Precision::bf16, GemmKind::weight_gradient},
                         measured_busy_s(f, gemm_flops(r), r.time_s));
    const Precision p = f == OpFamily::gemm_fp8 ? Precision::fp8 : Precision::bf16;
    return gemm_time(m, GemmShape{r.m, r.n, r.k, p, GemmKind::forward}, measured_busy_s(f, gemm_flops(r), r.time_s));
}

OpTime model_attention(const OpRateModel& m, const AttentionRow& r, Pass pass) {
    const double measured = pass == Pass::forward ? r.fwd_s : r.bwd_s;
    const OpFamily f = pass == Pass::forward ? OpFamily::attention_fwd : OpFamily::attention_bwd;
    return attention_time(m, r.kernel, r.shape, pass, measured_busy_s(f, attention_counted_flops(r.shape, pass), measured));
}

// Copies whose source and destination fit in L2 together are not HBM-bound: reported apart, not fitted.
constexpr double l2_mib = 50;  // H100/H200 L2
bool l2_resident(const HbmRow& r) { return 2 * r.mib <= l2_mib; }

std::string gemm_shape(const GemmRow& r, bool wgrad) {
    char b[96];
    std::snprintf(b, sizeof b, wgrad ? "tokens=%lld N=%lld K=%lld" : "M=%lld N=%lld K=%lld", r.m, r.n, r.k);
    return b;
}

}  // namespace

double measured_busy_s(OpFamily family, double work, double time_s) {
    if (!(time_s > 0) || !(work > 0)) return 0;
    switch (family) {
        case OpFamily::gemm_bf16:
        case OpFamily::wgrad_bf16:
        case OpFamily::grouped:
            return replays * reps_for(work, 7e14) * time_s;
        case OpFamily::gemm_fp8:
            return replays * reps_for(work, 1.4e15) * time_s;
        case OpFamily::attention_fwd:
            return replays * reps_for(work, 5e14) * time_s;
        case OpFamily::attention_bwd:
            return 5 * time_s;  // five backward calls timed with events
        case OpFamily::per_expert:
            return replays * std::max(2.0, std::floor(reps_for(work, 7e14) / 4)) * time_s;
        case OpFamily::hbm_copy: {
            const double reps = std::clamp(std::floor(4e-3 / (2 * work / 4.2e12 + 2e-6)), 3.0, 200.0);
            return replays * reps * time_s;
        }
    }
    return 0;
}

OpRateModel fit_op_rates(const OpTable& t, const GpuDatasheet& gpu) {
    OpRateModel m;
    m.gpu = gpu;
    m.kernel_gap_us = t.kernel_gap_in_graph_us;
    m.clock = PowerClock{1.2, 0.007};

    // GEMMs: bf16, fp8 and weight gradients together (they share the clock, HBM and launch).
    if (!t.gemm_bf16.empty() || !t.gemm_fp8.empty() || !t.wgrad_bf16.empty()) {
        const auto loss = [&](const OpRateModel& x) {
            double sum = 0;
            std::size_t n = 0;
            const std::array<std::pair<const std::vector<GemmRow>*, OpFamily>, 3> sets{
                {{&t.gemm_bf16, OpFamily::gemm_bf16}, {&t.gemm_fp8, OpFamily::gemm_fp8}, {&t.wgrad_bf16, OpFamily::wgrad_bf16}}};
            for (const auto& [rows, f] : sets)
                for (const GemmRow& r : *rows) sum += log_error(model_gemm_row(x, r, f), r.time_s), ++n;
            return sum / double(n);
        };
        const auto fraction = range(0.45, 0.9, 0.005);
        const auto fill = range(0, 1024, 32);
        const std::vector<double> splits{1, 2, 3, 4, 6, 8, 12, 16};
        std::vector<Knob> knobs{
            {"bf16 sustained and fill", [](OpRateModel& x, double v) { x.gemm.bf16.sustained_fraction = v; }, fraction,
             [](OpRateModel& x, double v) { x.gemm.bf16.tile_fill_k = v; }, fill},
            {"fp8 sustained and fill", [](OpRateModel& x, double v) { x.gemm.fp8.sustained_fraction = v; }, fraction,
             [](OpRateModel& x, double v) { x.gemm.fp8.tile_fill_k = v; }, fill},
            {"wgrad sustained and fill", [](OpRateModel& x, double v) { x.gemm.wgrad_bf16.sustained_fraction = v; }, fraction,
             [](OpRateModel& x, double v) { x.gemm.wgrad_bf16.tile_fill_k = v; }, fill},
            {"burst and settle", [](OpRateModel& x, double v) { x.clock.burst_factor = v; }, range(1.0, 1.4, 0.01),
             [](OpRateModel& x, double v) { x.clock.settle_s = v; }, range(0, 0.03, 0.001)},
            {"bf16 max split", [](OpRateModel& x, double v) { x.gemm.bf16.max_split_k = int(v); }, splits},
            {"fp8 max split", [](OpRateModel& x, double v) { x.gemm.fp8.max_split_k = int(v); }, splits},
            {"wgrad max split", [](OpRateModel& x, double v) { x.gemm.wgrad_bf16.max_split_k = int(v); }, splits},
            {"split depth", [](OpRateModel& x, double v) { x.gemm.min_split_k_depth = v; }, {64, 128, 256, 512, 1024}},
            {"split reduce", [](OpRateModel& x, double v) { x.gemm.split_reduce_exposed = v; }, {0, 0.25, 0.5, 1, 2, 4}},
            {"hbm efficiency", [](OpRateModel& x, double v) { x.gemm.hbm_efficiency = v; }, range(0.3, 1.0, 0.025)},
            {"epilogue", [](OpRateModel& x, double v) { x.gemm.epilogue_exposed = v; }, range(0, 3, 0.25)},
            {"burst", [](OpRateModel& x, double v) { x.clock.burst_factor = v; }, range(1.0, 1.4, 0.01)},
            {"settle", [](OpRateModel& x, double v) { x.clock.settle_s = v; }, range(0, 0.03, 0.0005)},
            {"launch", [](OpRateModel& x, double v) { x.gemm.launch_us = v; }, range(0, 6, 0.25)},
        };
        coordinate_search(m, knobs, loss);
    }

    // Attention, each kernel family on its own rows (forward and backward together).
    for (AttentionKernel k : {AttentionKernel::cudnn, AttentionKernel::flash2}) {
        AttentionFamily OpRateModel::*fam = k == AttentionKernel::cudnn ? &OpRateModel::cudnn : &OpRateModel::flash2;
        std::vector<const AttentionRow*> rows;
        for (const AttentionRow& r : t.attention)
            if (r.kernel == k) rows.push_back(&r);
        if (rows.empty()) continue;
        const auto loss = [&](const OpRateModel& x) {
            double sum = 0;
            for (const AttentionRow* r : rows)
                sum += log_error(model_attention(x, *r, Pass::forward), r->fwd_s) +
                       log_error(model_attention(x, *r, Pass::backward), r->bwd_s);
            return sum / double(2 * rows.size());
        };
        const auto fraction = range(0.2, 1.0, 0.005);
        const auto cost = range(0, 256, 2);
        const auto overlap = range(0, 1, 0.05);
        std::vector<Knob> knobs{{"block", [fam](OpRateModel& x, double v) { (x.*fam).block = int(v); }, {64, 128, 192, 256, 384, 512}}};
        for (AttentionPass AttentionFamily::*pass : {&AttentionFamily::fwd, &AttentionFamily::bwd}) {
            knobs.push_back({"fraction and softmax", [fam, pass](OpRateModel& x, double v) { ((x.*fam).*pass).fraction = v; }, fraction,
                             [fam, pass](OpRateModel& x, double v) { ((x.*fam).*pass).softmax_cost = v; }, cost});
            knobs.push_back({"overlap", [fam, pass](OpRateModel& x, double v) { ((x.*fam).*pass).softmax_overlap = v; }, overlap});
            knobs.push_back(
                {"row fill", [fam, pass](OpRateModel& x, double v) { ((x.*fam).*pass).row_fill_keys = v; }, range(0, 4096, 32)});
        }
        coordinate_search(m, knobs, loss);
    }

    // Grouped GEMM, one kernel (the per-expert launches have no parameter of their own).
    if (!t.grouped.empty()) {
        const auto loss = [&](const OpRateModel& x) {
            double sum = 0;
            for (const GroupedRow& r : t.grouped)
                sum += log_error(grouped_gemm_time(x, r.shape, measured_busy_s(OpFamily::grouped, grouped_flops(r.shape), r.grouped_s)),
                                 r.grouped_s);
            return sum / double(t.grouped.size());
        };
        std::vector<Knob> knobs{
            {"grouped fraction and fill", [](OpRateModel& x, double v) { x.grouped.grouped_fraction = v; }, range(0.4, 1.0, 0.005),
             [](OpRateModel& x, double v) { x.grouped.tile_fill_k = v; }, range(0, 1024, 32)},
            {"grouped per expert", [](OpRateModel& x, double v) { x.grouped.per_expert_us = v; }, range(0, 5, 0.05)},
        };
        coordinate_search(m, knobs, loss);
    }

    // HBM copies beyond L2.
    std::vector<const HbmRow*> copies;
    for (const HbmRow& r : t.hbm)
        if (!l2_resident(r)) copies.push_back(&r);
    if (!copies.empty()) {
        const auto loss = [&](const OpRateModel& x) {
            double sum = 0;
            for (const HbmRow* r : copies) sum += log_error(hbm_copy_time(x, copy_bytes(*r)), r->time_s);
            return sum / double(copies.size());
        };
        const auto eff = range(0.3, 1.0, 0.005);
        std::vector<Knob> knobs{
            {"latency", [](OpRateModel& x, double v) { x.hbm.latency_us = v; }, range(0, 10, 0.1)},
            {"efficiency", [](OpRateModel& x, double v) { x.hbm.efficiency = v; }, eff},
            {"large efficiency", [](OpRateModel& x, double v) { x.hbm.large_efficiency = v; }, eff},
            {"large footprint",
             [](OpRateModel& x, double v) { x.hbm.large_footprint_mib = v; },
             {128, 256, 512, 1024, 2048, 4096, 8192, 16384}},
        };
        coordinate_search(m, knobs, loss);
    }
    return m;
}

std::vector<OpRowError> compare_op_table(const OpRateModel& m, const OpTable& t) {
    std::vector<OpRowError> out;
    const auto add = [&](std::string family, std::string also, std::string shape, double measured, const OpTime& model) {
        out.push_back(OpRowError{std::move(family), std::move(shape), std::move(also), measured, model.ok() ? model.time_s : 0});
    };
    for (const GemmRow& r : t.gemm_bf16)
        add("gemm_bf16", "gemm (bf16 + fp8)", gemm_shape(r, false), r.time_s, model_gemm_row(m, r, OpFamily::gemm_bf16));
    for (const GemmRow& r : t.gemm_fp8)
        add("gemm_fp8", "gemm (bf16 + fp8)", gemm_shape(r, false), r.time_s, model_gemm_row(m, r, OpFamily::gemm_fp8));
    for (const GemmRow& r : t.wgrad_bf16) add("wgrad_bf16", "", gemm_shape(r, true), r.time_s, model_gemm_row(m, r, OpFamily::wgrad_bf16));
    for (const AttentionRow& r : t.attention) {
        const std::string k(name(r.kernel));
        char shape[128];
        std::snprintf(shape, sizeof shape, "d=%lld seq=%lld batch=%lld heads=%lld %s", r.shape.head_dim, r.shape.seq, r.shape.batch,
                      r.shape.q_heads, r.shape.causal ? "causal" : "full");
        const std::string also = r.shape.seq >= 2048 ? "attention " + k + " seq>=2048" : "";
        add("attention " + k + " fwd", also, shape, r.fwd_s, model_attention(m, r, Pass::forward));
        add("attention " + k + " bwd", also, std::string(shape), r.bwd_s, model_attention(m, r, Pass::backward));
    }
    for (const GroupedRow& r : t.grouped) {
        char shape[128];
        std::snprintf(shape, sizeof shape, "experts=%lld tokens=%lld hidden=%lld up=%lld", r.shape.experts, r.shape.tokens_per_expert,
                      r.shape.k, r.shape.n);
        const double fl = grouped_flops(r.shape);
        add("grouped one kernel", "", shape, r.grouped_s,
            grouped_gemm_time(m, r.shape, measured_busy_s(OpFamily::grouped, fl, r.grouped_s)));
        add("grouped per-expert launches", "", shape, r.per_expert_s,
            per_expert_gemms_time(m, r.shape, measured_busy_s(OpFamily::per_expert, fl, r.per_expert_s)));
    }
    for (const HbmRow& r : t.hbm) {
        char shape[64];
        std::snprintf(shape, sizeof shape, "%g MiB", r.mib);
        add(l2_resident(r) ? "hbm_copy (L2-resident, not fitted)" : "hbm_copy", r.mib >= 64 ? "hbm_copy >=64MiB" : "", shape, r.time_s,
            hbm_copy_time(m, copy_bytes(r)));
    }
    return out;
}

std::vector<OpFamilyError> summarize_op_errors(const std::vector<OpRowError>& rows) {
    static const std::vector<std::string> order{"gemm_bf16",
                                                "gemm_fp8",
                                                "gemm (bf16 + fp8)",
                                                "wgrad_bf16",
                                                "attention cudnn fwd",
                                                "attention cudnn bwd",
                                                "attention cudnn seq>=2048",
                                                "attention flash2 fwd",
                                                "attention flash2 bwd",
                                                "attention flash2 seq>=2048",
                                                "grouped one kernel",
                                                "grouped per-expert launches",
                                                "hbm_copy (L2-resident, not fitted)",
                                                "hbm_copy",
                                                "hbm_copy >=64MiB",
                                                "node gemm_bf16",
                                                "node gemm_fp8",
                                                "node gemm (bf16 + fp8)",
                                                "node wgrad_bf16",
                                                "node attention cudnn fwd",
                                                "node attention cudnn bwd",
                                                "node attention cudnn seq>=2048",
                                                "node attention flash2 fwd",
                                                "node attention flash2 bwd",
                                                "node attention flash2 seq>=2048"};
    std::map<std::string, OpFamilyError> by;
    for (const OpRowError& r : rows) {
        for (const std::string* f : {&r.family, &r.also}) {
            if (f->empty()) continue;
            OpFamilyError& s = by[*f];
            s.family = *f;
            const double e = r.model_s > 0 ? r.error() : -1;  // a refused row counts as -100 %
            const double a = std::abs(e);
            ++s.count;
            s.within_5 += a <= 0.05;
            s.within_10 += a <= 0.10;
            s.within_15 += a <= 0.15;
            s.within_25 += a <= 0.25;
            s.mean_abs += a;
            s.mean_signed += e;
            if (a > std::abs(s.worst) || s.worst_shape.empty()) s.worst = e, s.worst_shape = r.shape;
        }
    }
    std::vector<OpFamilyError> out;
    for (const std::string& f : order) {
        auto it = by.find(f);
        if (it == by.end()) continue;
        OpFamilyError s = it->second;
        s.mean_abs /= s.count;
        s.mean_signed /= s.count;
        out.push_back(s);
    }
    return out;
}

OpValidation validate_op_table(const OpTable& t, const GpuDatasheet& gpu) {
    OpValidation v;
    v.file = t.file;
    v.device = t.device;
    v.model = fit_op_rates(t, gpu);
    v.rows = compare_op_table(v.model, t);
    v.families = summarize_op_errors(v.rows);
    return v;
}

namespace {

double speed_at(const PowerClock& clock, double busy_s) {
    if (!(busy_s > 0)) return clock.burst_factor;
    return 1 + (clock.burst_factor - 1) * std::min(1.0, clock.settle_s / busy_s);
}

std::string attention_shape(const AttentionRow& r) {
    char shape[128];
    std::snprintf(shape, sizeof shape, "d=%lld seq=%lld batch=%lld heads=%lld %s", r.shape.head_dim, r.shape.seq, r.shape.batch,
                  r.shape.q_heads, r.shape.causal ? "causal" : "full");
    return shape;
}

// One fused attention pass of the row as the training step prices it on `node` (compute_rates()
// with the row's kernel family as the software's choice, pass_time_s()): 4 b h s keys d FLOPs
// over the keys a query attends to (attended_keys(): causal, the diagonal tiles whole), backward
// 2.5x, with the kernel's fill per query row; the 16-bit peak at the row's measured clock.
double node_attention_s(const NodeSpec& node, const AttentionRow& r, bool backward, const PowerClock& clock) {
    ModelSpec m;
    m.seq_len = static_cast<int>(std::min<long long>(r.shape.seq, 1LL << 30));
    const double s = double(r.shape.seq), d = double(r.shape.head_dim);
    const double keys = r.shape.causal ? attended_keys(m, false) : s;
    const double b = double(r.shape.batch), h = double(r.shape.q_heads);
    const double flops = 4.0 * b * h * s * keys * d;
    const double io = 2.0 * b * s * h * 4.0 * d;  // read Q, K, V, write O (16 bits)
    const double measured = backward ? r.bwd_s : r.fwd_s;
    const OpFamily f = backward ? OpFamily::attention_bwd : OpFamily::attention_fwd;
    NodeSpec at = node;
    at.matrix_fp16_tflops *=
        speed_at(clock, measured_busy_s(f, attention_counted_flops(r.shape, backward ? Pass::backward : Pass::forward), measured));
    SoftwareSpec sw;
    sw.fused_attention = r.kernel == AttentionKernel::flash2 ? FusedAttention::flash2 : FusedAttention::vendor;
    sw.host_op_us = 0;
    const PassCost c{backward ? 2.5 * flops : flops, backward ? 2.0 * io + 2.0 * b * s * h * d : io, 1.0, 1.0 / keys, d, backward};
    return pass_time_s(c, OpKind::fused_attention, compute_rates(at, TrainingSpec{}, sw));
}

}  // namespace

std::vector<OpRowError> compare_node_ops(const NodeSpec& node, const OpTable& t, const PowerClock& clock) {
    std::vector<OpRowError> out;
    // One GEMM x[m,k] w[k,n] as a training step prices it, with the node's peaks at `speed` x the
    // sustained clock.
    const auto node_gemm_s = [&node](double m, double n, double k, comet::Precision p, double speed) {
        NodeSpec at = node;
        at.matrix_fp16_tflops *= speed;
        at.matrix_fp8_tflops *= speed;
        at.matrix_fp4_tflops *= speed;
        if (matrix_peak_tflops(at, p) <= 0) return 0.0;
        const Op op = gemm_op(1, m, n, k, false, gemm_operand_bytes(p));
        return pass_time_s(op.fwd, op.kind, compute_rates(at, p));
    };
    for (const GemmRow& r : t.gemm_bf16)
        out.push_back({"node gemm_bf16", gemm_shape(r, false), "node gemm (bf16 + fp8)", r.time_s,
                       node_gemm_s(double(r.m), double(r.n), double(r.k), comet::Precision::bf16,
                                   speed_at(clock, measured_busy_s(OpFamily::gemm_bf16, gemm_flops(r), r.time_s)))});
    for (const GemmRow& r : t.gemm_fp8)
        out.push_back({"node gemm_fp8", gemm_shape(r, false), "node gemm (bf16 + fp8)", r.time_s,
                       node_gemm_s(double(r.m), double(r.n), double(r.k), comet::Precision::fp8,
                                   speed_at(clock, measured_busy_s(OpFamily::gemm_fp8, gemm_flops(r), r.time_s)))});
    for (const AttentionRow& r : t.attention)
        for (const bool backward : {false, true})
            out.push_back({"node attention " + std::string(name(r.kernel)) + (backward ? " bwd" : " fwd"), attention_shape(r),
                           r.shape.seq >= 2048 ? "node attention " + std::string(name(r.kernel)) + " seq>=2048" : "",
                           backward ? r.bwd_s : r.fwd_s, node_attention_s(node, r, backward, clock)});
    // dW[N,K] = dY[M,N]^T X[M,K]: output N x K over the M tokens.
    for (const GemmRow& r : t.wgrad_bf16)
        out.push_back({"node wgrad_bf16", gemm_shape(r, true), "", r.time_s,
                       node_gemm_s(double(r.n), double(r.k), double(r.m), comet::Precision::bf16,
                                   speed_at(clock, measured_busy_s(OpFamily::wgrad_bf16, gemm_flops(r), r.time_s)))});
    return out;
}

AttentionModel fit_node_attention(const NodeSpec& node, const OpTable& t, const PowerClock& clock, AttentionKernel kernel) {
    std::vector<const AttentionRow*> rows;
    for (const AttentionRow& r : t.attention)
        if (r.kernel == kernel) rows.push_back(&r);
    AttentionModel a{};  // a fixed start: the result depends on the table and the node's peaks, HBM and launch only
    a.fill_keys = 128;
    if (rows.empty()) return a;
    const auto loss = [&](const AttentionModel& candidate) {
        NodeSpec n = node;
        (kernel == AttentionKernel::cudnn ? n.attention : n.attention_flash2) = candidate;
        double sum = 0;
        for (const AttentionRow* r : rows)
            for (const bool backward : {false, true}) {
                const double model = node_attention_s(n, *r, backward, clock), measured = backward ? r->bwd_s : r->fwd_s;
                sum += model > 0 && measured > 0 ? std::min(std::abs(std::log(model / measured)), error_cap) : infeasible_penalty;
            }
        return sum / double(2 * rows.size());
    };
    double best = loss(a);
    const auto take = [&](const AttentionModel& candidate) {
        const double l = loss(candidate);
        if (l < best - 1e-12) {
            best = l;
            a = candidate;
            return true;
        }
        return false;
    };
    for (int pass = 0; pass < 20; ++pass) {
        bool moved = false;
        for (int f = 60; f <= 200; ++f)  // fraction and softmax cost trade against each other: jointly
            for (int c = 0; c <= 160; c += 2) {
                AttentionModel q = a;
                q.max_fraction = f / 200.0;
                q.softmax_head_dim = c;
                moved |= take(q);
            }
        for (int e = 100; e <= 200; ++e) {
            AttentionModel q = a;
            q.backward_efficiency = e / 200.0;
            moved |= take(q);
        }
        for (int k = 0; k <= 1024; k += 8) {
            AttentionModel q = a;
            q.fill_keys = k;
            moved |= take(q);
        }
        if (!moved) break;
    }
    return a;
}

OpValidation validate_op_table(const OpTable& t, const GpuDatasheet& gpu, const NodeSpec& node, const std::string& node_name) {
    OpValidation v = validate_op_table(t, gpu);
    v.node_name = node_name;
    v.node_rows = compare_node_ops(node, t, v.model.clock);
    v.node_families = summarize_op_errors(v.node_rows);
    v.node_attention_fit = {fit_node_attention(node, t, v.model.clock, AttentionKernel::cudnn),
                            fit_node_attention(node, t, v.model.clock, AttentionKernel::flash2)};
    return v;
}

namespace {

// The fitted parameters as (name, value, unit) in a fixed order, for both formats.
struct Param {
    std::string name;
    double value;
    const char* unit;
};
std::vector<Param> parameters(const OpRateModel& m) {
    std::vector<Param> p{
        {"gpu.bf16_tflops", m.gpu.bf16_tflops, "TFLOP/s (datasheet)"},
        {"gpu.fp8_tflops", m.gpu.fp8_tflops, "TFLOP/s (datasheet)"},
        {"gpu.hbm_gbps", m.gpu.hbm_gbps, "GB/s (datasheet)"},
        {"gpu.sms", double(m.gpu.sms), "SMs (datasheet)"},
        {"clock.burst_factor", m.clock.burst_factor, "x sustained clock"},
        {"clock.settle_ms", 1e3 * m.clock.settle_s, "ms"},
        {"gemm.bf16.sustained_fraction", m.gemm.bf16.sustained_fraction, "of peak"},
        {"gemm.bf16.tile_fill_k", m.gemm.bf16.tile_fill_k, "K steps"},
        {"gemm.fp8.sustained_fraction", m.gemm.fp8.sustained_fraction, "of peak"},
        {"gemm.fp8.tile_fill_k", m.gemm.fp8.tile_fill_k, "K steps"},
        {"gemm.wgrad_bf16.sustained_fraction", m.gemm.wgrad_bf16.sustained_fraction, "of peak"},
        {"gemm.wgrad_bf16.tile_fill_k", m.gemm.wgrad_bf16.tile_fill_k, "K steps"},
        {"gemm.bf16.max_split_k", double(m.gemm.bf16.max_split_k), "splits"},
        {"gemm.fp8.max_split_k", double(m.gemm.fp8.max_split_k), "splits"},
        {"gemm.wgrad_bf16.max_split_k", double(m.gemm.wgrad_bf16.max_split_k), "splits"},
        {"gemm.min_split_k_depth", m.gemm.min_split_k_depth, "K per split"},
        {"gemm.split_reduce_exposed", m.gemm.split_reduce_exposed, "of fp32 partials' traffic"},
        {"gemm.hbm_efficiency", m.gemm.hbm_efficiency, "of HBM bandwidth"},
        {"gemm.epilogue_exposed", m.gemm.epilogue_exposed, "of one wave's output write"},
        {"gemm.launch_us", m.gemm.launch_us, "us"},
    };
    for (const auto& [n, f] : {std::pair<const char*, const AttentionFamily*>{"cudnn", &m.cudnn}, {"flash2", &m.flash2}}) {
        const std::string k = std::string("attention.") + n;
        for (const auto& [pn, ap] : {std::pair<const char*, const AttentionPass*>{".fwd", &f->fwd}, {".bwd", &f->bwd}}) {
            p.push_back({k + pn + ".fraction", ap->fraction, "of bf16 peak"});
            p.push_back({k + pn + ".softmax_cost", ap->softmax_cost, "head-dim units per pair"});
            p.push_back({k + pn + ".softmax_overlap", ap->softmax_overlap, "of the softmax under the products"});
            p.push_back({k + pn + ".row_fill_keys", ap->row_fill_keys, "key positions per query row"});
        }
        p.push_back({k + ".block", double(f->block), "tokens (causal diagonal)"});
    }
    p.push_back({"grouped.grouped_fraction", m.grouped.grouped_fraction, "of bf16 peak"});
    p.push_back({"grouped.tile_fill_k", m.grouped.tile_fill_k, "K steps"});
    p.push_back({"grouped.per_expert_us", m.grouped.per_expert_us, "us per expert"});
    p.push_back({"hbm.latency_us", m.hbm.latency_us, "us"});
    p.push_back({"hbm.efficiency", m.hbm.efficiency, "of HBM bandwidth"});
    p.push_back({"hbm.large_efficiency", m.hbm.large_efficiency, "of HBM bandwidth"});
    p.push_back({"hbm.large_footprint_mib", m.hbm.large_footprint_mib, "MiB (source + destination)"});
    p.push_back({"kernel_gap_in_graph_us", m.kernel_gap_us, "us (measured, not fitted)"});
    return p;
}

}  // namespace

namespace {
std::string families_text(const std::vector<OpFamilyError>& families) {
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-36s %5s %6s %6s %6s %6s %9s %9s %8s  %s\n", "family", "n", "<=5%", "<=10%", "<=15%", "<=25%",
                  "mean|e|", "mean sgn", "worst", "worst shape");
    out += line;
    for (const OpFamilyError& f : families) {
        std::snprintf(line, sizeof line, "%-36s %5d %6d %6d %6d %6d %8.1f%% %+8.1f%% %+7.1f%%  %s\n", f.family.c_str(), f.count, f.within_5,
                      f.within_10, f.within_15, f.within_25, 100 * f.mean_abs, 100 * f.mean_signed, 100 * f.worst, f.worst_shape.c_str());
        out += line;
    }
    return out;
}
}  // namespace

std::string format_op_validation_text(const OpValidation& v) {
    std::string out = "Per-op rate model vs " + v.file + " (" + v.device + "), fitted on this table:\n\n";
    out += families_text(v.families);
    char line[512];
    out += "\nFitted parameters (error = model / measured - 1):\n";
    for (const Param& p : parameters(v.model)) {
        std::snprintf(line, sizeof line, "  %-38s %10.4g  %s\n", p.name.c_str(), p.value, p.unit);
        out += line;
    }
    if (!v.node_name.empty()) {
        out += "\nNode preset " + v.node_name +
               ": its GEMMs and fused attention as a training step prices them (node.gemm: peak fraction, tile fill, waves "
               "over the SMs, split-K, HBM roofline, launch; node.attention and node.attention_flash2), at the clock each "
               "row was measured at (the fitted clock above):\n\n";
        out += families_text(v.node_families);
        out +=
            "\nFused attention in the step's form (node.attention: max_fraction x d / (d + softmax_head_dim), backward x "
            "backward_efficiency, k / (k + fill_keys)), fitted on this table's rows for this node (the rule of the fit above):\n";
        for (const auto& [kernel, a] : {std::pair<const char*, const AttentionModel*>{"cudnn (node.attention)", &v.node_attention_fit[0]},
                                        {"flash2 (node.attention_flash2)", &v.node_attention_fit[1]}}) {
            std::snprintf(line, sizeof line, "  %-32s max_fraction %.3f  softmax_head_dim %g  backward_efficiency %.3f  fill_keys %g\n",
                          kernel, a->max_fraction, a->softmax_head_dim, a->backward_efficiency, a->fill_keys);
            out += line;
        }
    }
    return out;
}

std::string format_op_validation_json(const OpValidation& v) {
    nlohmann::json j;
    j["file"] = v.file;
    j["device"] = v.device;
    nlohmann::json params = nlohmann::json::object();
    for (const Param& p : parameters(v.model)) params[p.name] = p.value;
    j["parameters"] = params;
    nlohmann::json fams = nlohmann::json::array();
    for (const OpFamilyError& f : v.families)
        fams.push_back({{"family", f.family},
                        {"count", f.count},
                        {"within_5pct", f.within_5},
                        {"within_10pct", f.within_10},
                        {"within_15pct", f.within_15},
                        {"within_25pct", f.within_25},
                        {"mean_abs_error", f.mean_abs},
                        {"mean_signed_error", f.mean_signed},
                        {"worst_error", f.worst},
                        {"worst_shape", f.worst_shape}});
    j["families"] = fams;
    nlohmann::json rows = nlohmann::json::array();
    for (const OpRowError& r : v.rows)
        rows.push_back(
            {{"family", r.family}, {"shape", r.shape}, {"measured_s", r.measured_s}, {"model_s", r.model_s}, {"error", r.error()}});
    j["rows"] = rows;
    if (!v.node_name.empty()) {
        nlohmann::json node_fams = nlohmann::json::array();
        for (const OpFamilyError& f : v.node_families)
            node_fams.push_back({{"family", f.family},
                                 {"count", f.count},
                                 {"within_10pct", f.within_10},
                                 {"within_25pct", f.within_25},
                                 {"mean_abs_error", f.mean_abs},
                                 {"mean_signed_error", f.mean_signed},
                                 {"worst_error", f.worst},
                                 {"worst_shape", f.worst_shape}});
        nlohmann::json fits = nlohmann::json::object();
        for (const auto& [kernel, a] :
             {std::pair<const char*, const AttentionModel*>{"cudnn", &v.node_attention_fit[0]}, {"flash2", &v.node_attention_fit[1]}})
            fits[kernel] = {{"max_fraction", a->max_fraction},
                            {"softmax_head_dim", a->softmax_head_dim},
                            {"backward_efficiency", a->backward_efficiency},
                            {"fill_keys", a->fill_keys}};
        j["node"] = {{"name", v.node_name}, {"families", node_fams}, {"attention_fit", fits}};
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // a file name need not be UTF-8
}

}  // namespace comet::ops
