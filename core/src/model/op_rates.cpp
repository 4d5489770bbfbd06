#include "comet/op_rates.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace comet::ops {
namespace {

constexpr double out_bytes = 2;      // every measured GEMM writes bf16
constexpr double partial_bytes = 4;  // split-K partial sums in fp32
constexpr std::array<std::pair<int, int>, 3> tiles{{{128, 128}, {128, 256}, {256, 128}}};

bool positive(double v) { return std::isfinite(v) && v > 0; }
bool non_negative(double v) { return std::isfinite(v) && v >= 0; }

OpTime fail(std::string problem) { return OpTime{0, std::move(problem)}; }

std::string check_gpu(const OpRateModel& m) {
    if (!positive(m.gpu.bf16_tflops) || !positive(m.gpu.fp8_tflops)) return "the datasheet peak must be > 0";
    if (!positive(m.gpu.hbm_gbps)) return "the HBM bandwidth must be > 0";
    if (m.gpu.sms <= 0) return "the SM count must be > 0";
    if (!(m.clock.burst_factor >= 1) || !std::isfinite(m.clock.burst_factor) || !non_negative(m.clock.settle_s))
        return "the power clock needs burst_factor >= 1 and settle_s >= 0";
    return {};
}

// Average clock over a busy stream of busy_s relative to the sustained clock (>= 1).
double clock_speed(const PowerClock& c, double busy_s) {
    if (!(busy_s > 0)) return c.burst_factor;  // nothing before: the burst clock
    if (!std::isfinite(busy_s)) return 1.0;
    return 1 + (c.burst_factor - 1) * std::min(1.0, c.settle_s / busy_s);
}

const GemmClass& gemm_class(const GemmParams& g, Precision p, GemmKind k) {
    if (k == GemmKind::weight_gradient) return g.wgrad_bf16;  // measured in bf16 only
    return p == Precision::fp8 ? g.fp8 : g.bf16;
}

double peak_flops(const GpuDatasheet& gpu, Precision p) { return 1e12 * (p == Precision::fp8 ? gpu.fp8_tflops : gpu.bf16_tflops); }

// The fastest tile and split-K for one GEMM (no launch): the compute side at the clock `speed`,
// bounded below by the operands' HBM traffic, plus the exposed epilogue.
double gemm_kernel_s(const GpuDatasheet& gpu, const GemmParams& g, const GemmClass& cls, double m, double n, double k, double in_bytes,
                     double peak, double speed) {
    const double bw = 1e9 * gpu.hbm_gbps * g.hbm_efficiency;
    TiledGemm t;
    t.m = m, t.n = n, t.k = k;
    t.flops_per_s = peak * cls.sustained_fraction * speed;
    t.tile_fill_k = cls.tile_fill_k;
    t.sms = gpu.sms;
    t.max_split_k = cls.max_split_k;
    t.min_split_k_depth = g.min_split_k_depth;
    t.traffic_s = ((m * k + n * k) * in_bytes + m * n * out_bytes) / bw;
    t.epilogue_s = g.epilogue_exposed * m * n * out_bytes / bw;
    t.split_partials_s = g.split_reduce_exposed * m * n * partial_bytes / (1e9 * gpu.hbm_gbps);
    return tiled_gemm_s(t);
}

std::string check_gemm_params(const GemmParams& g, const GemmClass& cls) {
    if (!positive(cls.sustained_fraction) || cls.sustained_fraction > 1) return "the GEMM sustained fraction must be in (0, 1]";
    if (!non_negative(cls.tile_fill_k) || !positive(g.min_split_k_depth) || !non_negative(g.split_reduce_exposed) ||
        !positive(g.hbm_efficiency) || g.hbm_efficiency > 1 || !non_negative(g.epilogue_exposed) || !non_negative(g.launch_us))
        return "a GEMM parameter is negative, non-finite or an efficiency is above 1";
    return {};
}

}  // namespace

double tiled_gemm_s(const TiledGemm& g) noexcept {
    if (!(g.batch > 0) || !(g.m > 0) || !(g.n > 0) || !(g.k > 0) || !(g.flops_per_s > 0)) return 0.0;
    if (g.sms <= 0) return std::max(2.0 * g.batch * g.m * g.n * (g.k + g.tile_fill_k) / g.flops_per_s, g.traffic_s) + g.epilogue_s;
    const double per_sm = g.flops_per_s / g.sms;
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [tm, tn] : tiles) {
        const double grid = g.batch * (std::ceil(g.m / tm) * std::ceil(g.n / tn));
        for (int s = 1; s <= std::max(1, g.max_split_k); ++s) {
            if (s > 1 && g.k / s < g.min_split_k_depth) break;
            const double waves = std::ceil(grid * s / g.sms);
            double compute_s = waves * 2.0 * tm * tn * (g.k / s + g.tile_fill_k) / per_sm;
            if (s > 1) compute_s += s * g.split_partials_s;
            best = std::min(best, std::max(compute_s, g.traffic_s) + g.epilogue_s / waves);
        }
    }
    return best;
}

std::string_view name(AttentionKernel k) noexcept { return k == AttentionKernel::cudnn ? "cudnn" : "flash2"; }
std::string_view name(Precision p) noexcept { return p == Precision::fp8 ? "fp8" : "bf16"; }

OpTime gemm_time(const OpRateModel& model, const GemmShape& s, double busy_s) {
    if (s.m <= 0 || s.n <= 0 || s.k <= 0) return fail("a GEMM needs M, N and K > 0");
    if (auto p = check_gpu(model); !p.empty()) return fail(p);
    const GemmClass& cls = gemm_class(model.gemm, s.precision, s.kind);
    if (auto p = check_gemm_params(model.gemm, cls); !p.empty()) return fail(p);
    const double speed = clock_speed(model.clock, busy_s);
    const double in_bytes = s.precision == Precision::fp8 ? 1 : 2;
    const double t = gemm_kernel_s(model.gpu, model.gemm, cls, double(s.m), double(s.n), double(s.k), in_bytes,
                                   peak_flops(model.gpu, s.precision), speed);
    return {t + 1e-6 * model.gemm.launch_us, {}};
}

double attention_counted_flops(const AttentionShape& s, Pass pass) {
    const double seq = double(s.seq);
    const double keys = s.causal ? (seq + 1) / 2 : seq;
    const double fwd = 4.0 * double(s.batch) * double(s.q_heads) * seq * keys * double(s.head_dim);
    return pass == Pass::backward ? 2.5 * fwd : fwd;
}

OpTime attention_time(const OpRateModel& model, AttentionKernel kernel, const AttentionShape& s, Pass pass, double busy_s) {
    if (s.batch <= 0 || s.q_heads <= 0 || s.seq <= 0 || s.head_dim <= 0) return fail("attention needs batch, heads, seq and head_dim > 0");
    if (auto p = check_gpu(model); !p.empty()) return fail(p);
    const AttentionFamily& f = kernel == AttentionKernel::cudnn ? model.cudnn : model.flash2;
    const AttentionPass& ap = pass == Pass::forward ? f.fwd : f.bwd;
    if (!positive(ap.fraction) || ap.fraction > 1 || !non_negative(ap.softmax_cost) ||
        !(ap.softmax_overlap >= 0 && ap.softmax_overlap <= 1) || f.block <= 0 || !non_negative(ap.row_fill_keys) ||
        !non_negative(model.gemm.launch_us))
        return fail("an attention parameter is out of range (fraction in (0, 1], overlap in [0, 1], costs >= 0, block > 0)");
    // Executed key positions per query: causal kernels run whole blocks up to the diagonal.
    const double seq = double(s.seq);
    double keys = seq;
    if (s.causal) {
        const double blocks = std::ceil(seq / f.block);
        keys = std::min(seq, f.block * (blocks + 1) / 2);
    }
    const double d = double(s.head_dim);
    const double flops =
        4.0 * double(s.batch) * double(s.q_heads) * seq * (keys + ap.row_fill_keys) * d * (pass == Pass::backward ? 2.5 : 1.0);
    const double c = ap.softmax_cost;
    const double units = d + c - ap.softmax_overlap * std::min(d, c);
    const double rate = 1e12 * model.gpu.bf16_tflops * ap.fraction * d / units * clock_speed(model.clock, busy_s);
    return {flops / rate + 1e-6 * model.gemm.launch_us, {}};
}

OpTime grouped_gemm_time(const OpRateModel& model, const GroupedShape& s, double busy_s) {
    if (s.experts <= 0 || s.tokens_per_expert <= 0 || s.k <= 0 || s.n <= 0)
        return fail("a grouped GEMM needs experts, tokens, K and N > 0");
    if (auto p = check_gpu(model); !p.empty()) return fail(p);
    const GroupedParams& gp = model.grouped;
    if (!positive(gp.grouped_fraction) || gp.grouped_fraction > 1 || !non_negative(gp.tile_fill_k) || !non_negative(gp.per_expert_us))
        return fail("the grouped GEMM's fraction must be in (0, 1], its tile fill and per-expert cost >= 0");
    const GemmParams& g = model.gemm;
    if (auto p = check_gemm_params(g, g.bf16); !p.empty()) return fail(p);
    // One kernel: every expert's tiles in one grid. Modelled as one GEMM of M = experts x tokens
    // whose tile grid is the experts' grids side by side, with every expert's weights read.
    const double speed = clock_speed(model.clock, busy_s);
    const double e = double(s.experts), t = double(s.tokens_per_expert), k = double(s.k), n = double(s.n);
    const double bw = 1e9 * model.gpu.hbm_gbps * g.hbm_efficiency;
    TiledGemm tg;
    tg.batch = e, tg.m = t, tg.n = n, tg.k = k;
    tg.flops_per_s = 1e12 * model.gpu.bf16_tflops * gp.grouped_fraction * speed;
    tg.tile_fill_k = gp.tile_fill_k;
    tg.sms = model.gpu.sms;
    tg.traffic_s = ((e * t * k + e * n * k) * 2 + e * t * n * out_bytes) / bw;
    tg.epilogue_s = g.epilogue_exposed * e * t * n * out_bytes / bw;
    const double best = tiled_gemm_s(tg);
    return {best + 1e-6 * (g.launch_us + e * gp.per_expert_us), {}};
}

OpTime per_expert_gemms_time(const OpRateModel& model, const GroupedShape& s, double busy_s) {
    if (s.experts <= 0 || s.tokens_per_expert <= 0 || s.k <= 0 || s.n <= 0)
        return fail("a grouped GEMM needs experts, tokens, K and N > 0");
    OpTime one = gemm_time(model, GemmShape{s.tokens_per_expert, s.n, s.k, Precision::bf16, GemmKind::forward}, busy_s);
    if (!one.ok()) return one;
    return {double(s.experts) * one.time_s, {}};
}

OpTime hbm_copy_time(const OpRateModel& model, double bytes) {
    if (!positive(bytes)) return fail("a copy needs bytes > 0");
    if (auto p = check_gpu(model); !p.empty()) return fail(p);
    const HbmParams& h = model.hbm;
    if (!non_negative(h.latency_us) || !positive(h.efficiency) || !positive(h.large_efficiency) || !non_negative(h.large_footprint_mib))
        return fail("an HBM copy parameter is out of range");
    const double footprint_mib = 2 * bytes / double(1 << 20);
    const double eff = footprint_mib > h.large_footprint_mib ? h.large_efficiency : h.efficiency;
    return {1e-6 * h.latency_us + 2 * bytes / (1e9 * model.gpu.hbm_gbps * eff), {}};
}

}  // namespace comet::ops
