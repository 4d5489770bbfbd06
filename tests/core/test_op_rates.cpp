// The per-op rate model (core/op_rates), its table reader (op_table_io) and its fit (op_fit):
// closed-form checks, monotonicity in the hardware's peaks, hostile tables, and the measured
// targets of issue 37 on the shipped H200 table, asserted at what the fit reaches today.
#include <QtTest>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "comet/compute.hpp"
#include "comet/op_rates.hpp"
#include "comet/op_table.hpp"
#include "comet/presets.hpp"

using namespace comet;
using namespace comet::ops;

namespace {

// A model whose GEMM time is the tile waves alone: no fill, no split, no epilogue, no launch, no
// burst, and HBM so fast that no shape is bandwidth-bound.
OpRateModel waves_only() {
    OpRateModel m;
    m.gemm.bf16 = GemmClass{0.5, 0, 1};
    m.gemm.epilogue_exposed = 0;
    m.gemm.launch_us = 0;
    m.gpu.hbm_gbps = 1e12;
    return m;
}

const OpFamilyError* family(const std::vector<OpFamilyError>& all, const std::string& name) {
    for (const auto& f : all)
        if (f.family == name) return &f;
    return nullptr;
}

bool has_error(const Loaded<OpTable>& t, const QString& needle) {
    for (const auto& e : t.errors)
        if (QString::fromStdString(e).contains(needle)) return true;
    return false;
}

QString errors_of(const Loaded<OpTable>& t) { return QString::fromStdString(t.error_text()); }

// A small valid table; `gemm_rows` replaces the gemm_bf16 rows' JSON.
std::string table_json(const std::string& gemm_rows = "[[256, 1024, 128, 2.5e-06, 26.1]]") {
    return R"({"device": "NVIDIA H200", "gemm_bf16": {"columns": ["M", "N", "K", "s", "tflops"], "rows": )" + gemm_rows +
           R"(}, "hbm_copy": {"columns": ["MiB", "s", "GBps_read_plus_write"], "rows": [[64, 3.3e-05, 4030]]}})";
}

}  // namespace

class TestOpRates : public QObject {
    Q_OBJECT

private slots:
    // 132 output tiles of 128x128 fill the 132 SMs once; one more tile takes a second wave.
    void waveQuantizationOverTheSms() {
        const OpRateModel m = waves_only();
        const double k = 8192;
        const OpTime one = gemm_time(m, GemmShape{128, 128LL * 132, 8192});
        const OpTime two = gemm_time(m, GemmShape{128, 128LL * 133, 8192});
        QVERIFY(one.ok() && two.ok());
        const double per_tile = 2.0 * 128 * 128 * k / (989.4e12 * 0.5 / 132);
        QCOMPARE(one.time_s, per_tile);
        QCOMPARE(two.time_s, 2 * per_tile);
        // Half a wave costs a whole one.
        QCOMPARE(gemm_time(m, GemmShape{128, 128LL * 66, 8192}).time_s, per_tile);
    }

    // The tile fill adds its K steps to every tile, and split-K shares K among idle SMs.
    void tileFillAndSplitK() {
        OpRateModel m = waves_only();
        m.gemm.bf16.tile_fill_k = 256;
        const double per_k = 2.0 * 128 * 128 / (989.4e12 * 0.5 / 132);
        QCOMPARE(gemm_time(m, GemmShape{128, 128LL * 132, 1024}).time_s, per_k * (1024 + 256));
        m.gemm.bf16.tile_fill_k = 0;
        m.gemm.bf16.max_split_k = 4;
        m.gemm.min_split_k_depth = 128;
        // 33 tiles on 132 SMs: four splits of K = 1024 fill one wave.
        QCOMPARE(gemm_time(m, GemmShape{128, 128LL * 33, 1024}).time_s, per_k * 256);
    }

    // A shape with little math per byte runs at the HBM roofline: operands and output over the
    // GEMM's share of the bandwidth, never faster.
    void hbmRooflineBound() {
        OpRateModel m;
        m.gemm.epilogue_exposed = 0;
        m.gemm.launch_us = 0;
        const double M = 16384, N = 16384, K = 64;
        const double bytes = (M * K + N * K) * 2 + M * N * 2;
        const double roofline = bytes / (4800e9 * m.gemm.hbm_efficiency);
        const OpTime t = gemm_time(m, GemmShape{16384, 16384, 64});
        QVERIFY(t.ok());
        QCOMPARE(t.time_s, roofline);
        for (long long k : {128LL, 1024LL, 8192LL}) {
            const double b = (M * double(k) + N * double(k)) * 2 + M * N * 2;
            QVERIFY(gemm_time(m, GemmShape{16384, 16384, k}).time_s >= b / (4800e9 * m.gemm.hbm_efficiency));
        }
    }

    // Doubling a peak or the bandwidth never makes an op slower (the fitted H200 model, every shape
    // of the shipped table and a few more).
    void fasterHardwareIsNeverSlower() {
        const Loaded<OpTable> t = load_op_table(presets_dir() / "measurements" / "h200-per-op-2026-12.json");
        QVERIFY2(t.ok(), qPrintable(errors_of(t)));
        const OpRateModel base = fit_op_rates(*t.value, GpuDatasheet{});
        std::vector<OpRateModel> faster(3, base);
        faster[0].gpu.bf16_tflops *= 2;
        faster[1].gpu.fp8_tflops *= 2;
        faster[2].gpu.hbm_gbps *= 2;
        int checked = 0;
        for (const OpRateModel& f : faster) {
            for (const ops::Precision p : {ops::Precision::bf16, ops::Precision::fp8})
                for (const GemmRow& r : t.value->gemm_bf16)
                    for (const double busy : {0.0, 1e-3, sustained}) {
                        const GemmShape s{r.m, r.n, r.k, p};
                        QVERIFY(gemm_time(f, s, busy).time_s <= gemm_time(base, s, busy).time_s);
                        ++checked;
                    }
            for (const AttentionRow& r : t.value->attention)
                for (const Pass pass : {Pass::forward, Pass::backward})
                    QVERIFY(attention_time(f, r.kernel, r.shape, pass).time_s <= attention_time(base, r.kernel, r.shape, pass).time_s);
            for (const GroupedRow& r : t.value->grouped) {
                QVERIFY(grouped_gemm_time(f, r.shape).time_s <= grouped_gemm_time(base, r.shape).time_s);
                QVERIFY(per_expert_gemms_time(f, r.shape).time_s <= per_expert_gemms_time(base, r.shape).time_s);
            }
            for (const double mib : {1.0, 64.0, 4096.0})
                QVERIFY(hbm_copy_time(f, mib * (1 << 20)).time_s <= hbm_copy_time(base, mib * (1 << 20)).time_s);
        }
        QVERIFY(checked > 1000);
        // A stream busy for longer runs at a lower average clock: never faster.
        const GemmShape s{4096, 4096, 4096};
        QVERIFY(gemm_time(base, s, 1e-4).time_s <= gemm_time(base, s, 1.0).time_s);
        QVERIFY(gemm_time(base, s, 1.0).time_s <= gemm_time(base, s, sustained).time_s);
    }

    // The training model prices a GEMM with tiled_gemm_s() through a per-thread table of the
    // shapes it priced (compute.cpp): whatever was priced before, in whatever order, a pass's
    // GEMM time is the tiled time of its own shape and rates. Every combination of two or three
    // values of each field (1152 cases, more than the table's slots, so slots are overwritten and
    // each case has neighbours that differ from it in one field only), priced in three orders.
    void rememberedGemmTimesAreEachShapesOwn() {
        struct Case {
            PassCost cost;
            ComputeRates rates;
            double direct = 0;
        };
        std::vector<Case> cases;
        for (const double batch : {1.0, 2.0})
            for (const double m : {128.0, 256.0, 4096.0})
                for (const double n : {128.0, 1024.0})
                    for (const double k : {64.0, 512.0, 8192.0})
                        for (const double flops : {1e14, 2e14})
                            for (const double fill : {0.0, 128.0})
                                for (const int sms : {0, 132})
                                    for (const int split : {1, 3})
                                        for (const double depth : {64.0, 256.0}) {
                                            Case c;
                                            c.cost.gemms[0] = GemmDims{batch, m, n, k, 1};
                                            c.rates.matrix_flops_per_s = flops;
                                            c.rates.tile_overhead_k = fill;
                                            c.rates.sms = sms;
                                            c.rates.max_split_k = split;
                                            c.rates.min_split_k_depth = depth;
                                            c.rates.hbm_bytes_per_s = 1e12;
                                            TiledGemm tg;
                                            tg.batch = batch, tg.m = m, tg.n = n, tg.k = k;
                                            tg.flops_per_s = flops;
                                            tg.tile_fill_k = fill;
                                            tg.sms = sms;
                                            tg.max_split_k = split;
                                            tg.min_split_k_depth = depth;
                                            c.direct = tiled_gemm_s(tg);
                                            cases.push_back(c);
                                        }
        QCOMPARE(cases.size(), std::size_t{1152});
        const auto check = [&](std::size_t i) {
            const double t = pass_time_s(cases[i].cost, OpKind::gemm, cases[i].rates);
            if (t == cases[i].direct && t > 0) return true;
            qWarning("case %zu: %.17g s, its own shape %.17g s", i, t, cases[i].direct);
            return false;
        };
        for (std::size_t i = 0; i < cases.size(); ++i) QVERIFY(check(i));
        for (std::size_t i = cases.size(); i-- > 0;) QVERIFY(check(i));
        for (std::size_t i = 0; i < cases.size(); ++i) QVERIFY(check((i * 7919) % cases.size()));
    }

    // Bad shapes and parameters: no time, no NaN, a reason.
    void badInputGivesAReasonNotNaN() {
        const OpRateModel m;
        for (const GemmShape& s : {GemmShape{0, 1, 1}, GemmShape{1, -4, 1}, GemmShape{1, 1, 0}}) {
            const OpTime t = gemm_time(m, s);
            QVERIFY(!t.ok());
            QCOMPARE(t.time_s, 0.0);
        }
        OpRateModel nan_peak;
        nan_peak.gpu.bf16_tflops = std::nan("");
        QVERIFY(gemm_time(nan_peak, GemmShape{1, 1, 1}).problem.find("peak") != std::string::npos);
        OpRateModel zero_sms;
        zero_sms.gpu.sms = 0;
        QVERIFY(!gemm_time(zero_sms, GemmShape{128, 128, 128}).ok());
        OpRateModel over;
        over.gemm.bf16.sustained_fraction = 1.5;
        QVERIFY(!gemm_time(over, GemmShape{128, 128, 128}).ok());
        QVERIFY(!attention_time(m, ops::AttentionKernel::cudnn, AttentionShape{1, 8, 0, 128}, Pass::forward).ok());
        QVERIFY(!grouped_gemm_time(m, GroupedShape{0, 128, 128, 128}).ok());
        QVERIFY(!per_expert_gemms_time(m, GroupedShape{8, 128, -1, 128}).ok());
        for (const double b : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
            const OpTime t = hbm_copy_time(m, b);
            QVERIFY(!t.ok());
            QVERIFY(std::isfinite(t.time_s));
        }
    }

    void readerAcceptsAValidTable() {
        const Loaded<OpTable> t = read_op_table(table_json(), "t.json");
        QVERIFY2(t.ok(), qPrintable(errors_of(t)));
        QCOMPARE(t.value->gemm_bf16.size(), std::size_t{1});
        QCOMPARE(t.value->gemm_bf16[0].n, 1024LL);
        QCOMPARE(t.value->hbm.size(), std::size_t{1});
    }

    void readerHostileValues_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative time") << QString::fromStdString(table_json("[[256, 1024, 128, -1, 26.1]]"))
                                       << "t.json: gemm_bf16.rows[0][3] (s) = -1: must be a time in seconds > 0";
        QTest::newRow("zero time") << QString::fromStdString(table_json("[[256, 1024, 128, 0, 26.1]]"))
                                   << "gemm_bf16.rows[0][3] (s) = 0: must be a time in seconds > 0";
        QTest::newRow("NaN as a string") << QString::fromStdString(table_json("[[256, 1024, 128, \"NaN\", 26.1]]"))
                                         << "gemm_bf16.rows[0][3] (s) = string \"NaN\": must be a time in seconds > 0";
        QTest::newRow("NaN literal") << QString::fromStdString(table_json("[[256, 1024, 128, NaN, 26.1]]")) << "t.json";
        QTest::newRow("fractional M") << QString::fromStdString(table_json("[[256.5, 1024, 128, 1e-6, 26.1]]"))
                                      << "gemm_bf16.rows[0][0] (M) = 256.5: must be a whole number from 1 to";
        QTest::newRow("M as text") << QString::fromStdString(table_json("[[\"256\", 1024, 128, 1e-6, 26.1]]"))
                                   << "gemm_bf16.rows[0][0] (M) = string \"256\": must be a whole number";
        QTest::newRow("short row") << QString::fromStdString(table_json("[[256, 1024, 128]]"))
                                   << "gemm_bf16.rows[0] = an array: must be a list of 5 values";
        QTest::newRow("empty rows") << QString::fromStdString(table_json("[]")) << "gemm_bf16.rows: is empty: at least one row is required";
        QTest::newRow("rows not a list") << QString::fromStdString(table_json("\"many\""))
                                         << "gemm_bf16.rows = string \"many\": must be a list of rows";
        QTest::newRow("missing device") << R"({"hbm_copy": {"columns": ["MiB", "s", "GBps_read_plus_write"], "rows": [[64, 3e-5, 4000]]}})"
                                        << "device: missing (required)";
        QTest::newRow("missing rows") << R"({"device": "NVIDIA H200", "hbm_copy": {"columns": ["MiB", "s", "GBps_read_plus_write"]}})"
                                      << "hbm_copy.rows: missing (required)";
        QTest::newRow("wrong columns")
            << R"({"device": "NVIDIA H200", "hbm_copy": {"columns": ["MiB", "ms", "x"], "rows": [[64, 3e-5, 4000]]}})"
            << "hbm_copy.columns = an array: must be [\"MiB\", \"s\", \"GBps_read_plus_write\"]";
        QTest::newRow("wrong type of table") << R"({"device": "NVIDIA H200", "hbm_copy": 4})"
                                             << "hbm_copy";
        QTest::newRow("no table") << R"({"device": "NVIDIA H200"})"
                                  << "no table: at least one of";
        QTest::newRow("unknown key") << R"({"device": "NVIDIA H200", "gemm_bf61": {}})"
                                     << "gemm_bf61";
        QTest::newRow("bad kernel")
            << R"({"device": "x", "attention": {"columns": ["kernel", "head_dim", "seq", "batch", "q_heads", "causal",
            "fwd_s", "bwd_s", "fwd_tflops", "bwd_tflops"], "rows": [["flash9", 64, 1024, 16, 64, 1, 1e-4, 1e-3, 1, 1]]}})"
            << "attention.rows[0][0] (kernel) = string \"flash9\": must be \"cudnn\" or \"flash2\"";
        QTest::newRow("causal 2") << R"({"device": "x", "attention": {"columns": ["kernel", "head_dim", "seq", "batch", "q_heads", "causal",
            "fwd_s", "bwd_s", "fwd_tflops", "bwd_tflops"], "rows": [["cudnn", 64, 1024, 16, 64, 2, 1e-4, 1e-3, 1, 1]]}})"
                                  << "attention.rows[0][5] (causal) = 2: must be 0 or 1";
        QTest::newRow("empty text") << ""
                                    << "t.json";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "t.json";
    }
    void readerHostileValues() {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const Loaded<OpTable> t = read_op_table(json.toStdString(), "t.json");
        QVERIFY(!t.ok());
        QVERIFY(!t.value);
        QVERIFY2(has_error(t, expected), qPrintable("expected '" + expected + "' in:\n" + errors_of(t)));
    }

    void unknownDeviceHasNoDatasheet() {
        QVERIFY(datasheet_for("NVIDIA H200").ok());
        const auto d = datasheet_for("Frobnicator 9000");
        QVERIFY(!d.ok());
        QVERIFY(d.errors.front().find("\"Frobnicator 9000\"") != std::string::npos);
    }

    // Issue 37's targets on the shipped H200 table, asserted at what the fit reaches (the issue's
    // own target in the comment where it is not met; docs/model.md lists both).
    // The node presets price a training step's GEMMs with the tiled GEMM and the constants of
    // the fit (docs/model.md, "GEMM time"): HGX H200 against its own measured table, and what the
    // table-calibrated constants it had before (0.72, 256 K steps, 4 us, no waves) reached.
    void nodePresetGemmsFollowTheMeasuredTable() {
        const Loaded<OpTable> t = load_op_table(presets_dir() / "measurements" / "h200-per-op-2026-12.json");
        QVERIFY2(t.ok(), qPrintable(errors_of(t)));
        const auto gpu = datasheet_for(t.value->device);
        QVERIFY(gpu.ok());
        const auto preset = find_node_preset("hgx-h200");
        QVERIFY(preset.has_value());
        const OpValidation v = validate_op_table(*t.value, *gpu.value, preset->node, "HGX H200");
        QCOMPARE(v.node_name, std::string("HGX H200"));
        const auto at = [&](const std::vector<OpFamilyError>& all, const char* name) {
            const OpFamilyError* f = family(all, name);
            if (!f) qFatal("no family %s", name);
            return *f;
        };
        const OpFamilyError both = at(v.node_families, "node gemm (bf16 + fp8)");
        QCOMPARE(both.count, 576);
        QVERIFY2(both.within_10 >= 449, qPrintable(QString::number(both.within_10)));  // reached: 449
        QVERIFY2(both.within_25 >= 569, qPrintable(QString::number(both.within_25)));  // reached: 569
        QVERIFY(std::abs(both.mean_signed) < 0.05);
        QCOMPARE(at(v.node_families, "node wgrad_bf16").count, 24);
        QVERIFY(at(v.node_families, "node wgrad_bf16").within_25 >= 23);
        // Fused attention as the step prices it: the cuDNN rows at seq >= 2048 all within 10 %
        // (the calibrated 0.81 / 32 / 0.74 / 256 had 21), FlashAttention-2 37 of 40.
        QCOMPARE(at(v.node_families, "node attention cudnn seq>=2048").count, 40);
        QVERIFY2(at(v.node_families, "node attention cudnn seq>=2048").within_10 >= 40,
                 qPrintable(QString::number(at(v.node_families, "node attention cudnn seq>=2048").within_10)));
        QVERIFY(at(v.node_families, "node attention flash2 seq>=2048").within_10 >= 37);
        // The preset states what the step-form fit on this table gives (within its grid steps).
        const AttentionModel& cudnn = v.node_attention_fit[0];
        QVERIFY2(std::abs(cudnn.max_fraction - preset->node.attention.max_fraction) <= 0.0051,
                 qPrintable(QString::number(cudnn.max_fraction)));
        QVERIFY(std::abs(cudnn.softmax_head_dim - preset->node.attention.softmax_head_dim) <= 2.01);
        QVERIFY(std::abs(cudnn.fill_keys - preset->node.attention.fill_keys) <= 8.01);
        const AttentionModel& fa2 = v.node_attention_fit[1];
        QVERIFY(std::abs(fa2.max_fraction - preset->node.attention_flash2.max_fraction) <= 0.0051);
        QVERIFY(std::abs(fa2.backward_efficiency - preset->node.attention_flash2.backward_efficiency) <= 0.0051);
        NodeSpec old_attention = preset->node;
        old_attention.attention = AttentionModel{0.81, 32, 0.74, 256};
        const auto before_attention = summarize_op_errors(compare_node_ops(old_attention, *t.value, v.model.clock));
        QVERIFY(at(before_attention, "node attention cudnn seq>=2048").within_10 < 30);
        // Every row has a time: the node has both peaks.
        for (const OpRowError& r : v.node_rows) QVERIFY2(r.model_s > 0 && std::isfinite(r.model_s), r.shape.c_str());
        // The constants before issue 37 (a continuous stream at 0.72 / 0.68 with 256 K steps of
        // fill and 4 us launches) are far from the same rows.
        NodeSpec old = preset->node;
        old.gemm = GemmModel{0.72, 256, 4, 0.68, 0, 0, 0, 1, 64};
        const auto before = summarize_op_errors(compare_node_ops(old, *t.value, v.model.clock));
        QVERIFY(at(before, "node gemm (bf16 + fp8)").within_10 < both.within_10 - 100);
        // A node without FP8 gives its FP8 rows no time, never a NaN.
        NodeSpec no_fp8 = preset->node;
        no_fp8.matrix_fp8_tflops = 0;
        for (const OpRowError& r : compare_node_ops(no_fp8, *t.value, v.model.clock)) {
            QVERIFY(std::isfinite(r.model_s));
            if (r.family == "node gemm_fp8") QCOMPARE(r.model_s, 0.0);
        }
    }

    void measuredTargetsOnTheShippedH200Table() {
        const Loaded<OpTable> t = load_op_table(presets_dir() / "measurements" / "h200-per-op-2026-12.json");
        QVERIFY2(t.ok(), qPrintable(errors_of(t)));
        QCOMPARE(t.value->gemm_bf16.size() + t.value->gemm_fp8.size(), std::size_t{576});
        const auto gpu = datasheet_for(t.value->device);
        QVERIFY(gpu.ok());
        const OpValidation v = validate_op_table(*t.value, *gpu.value);
        const auto at = [&](const char* name) {
            const OpFamilyError* f = family(v.families, name);
            if (!f) qFatal("no family %s", name);
            return *f;
        };
        // GEMM: target >= 85 % (490 of 576) within 10 %, all within 25 %. Reached: 484 and 575.
        QCOMPARE(at("gemm (bf16 + fp8)").count, 576);
        QVERIFY(at("gemm (bf16 + fp8)").within_10 >= 484);
        QVERIFY(at("gemm (bf16 + fp8)").within_25 >= 575);
        // Weight gradients: target all 24 within 10 %. Reached: 17, 23 within 25 %.
        QCOMPARE(at("wgrad_bf16").count, 24);
        QVERIFY(at("wgrad_bf16").within_10 >= 17);
        QVERIFY(at("wgrad_bf16").within_25 >= 23);
        // Attention, seq >= 2048, forward and backward: target all within 10 %. Reached.
        QCOMPARE(at("attention cudnn seq>=2048").count, 40);
        QCOMPARE(at("attention cudnn seq>=2048").within_10, 40);
        QCOMPARE(at("attention flash2 seq>=2048").count, 40);
        QCOMPARE(at("attention flash2 seq>=2048").within_10, 40);
        // Grouped GEMM: target all 30 within 15 % per kind. Reached: 28 (one kernel), 26 (per expert).
        QVERIFY(at("grouped one kernel").within_15 >= 28);
        QVERIFY(at("grouped one kernel").within_25 == 30);
        QVERIFY(at("grouped per-expert launches").within_15 >= 26);
        // HBM copies of >= 64 MiB: target all within 5 %. Reached.
        QCOMPARE(at("hbm_copy >=64MiB").count, 4);
        QCOMPARE(at("hbm_copy >=64MiB").within_5, 4);
        // The fitted parameters stay physical.
        QVERIFY(v.model.gemm.bf16.sustained_fraction > 0.6 && v.model.gemm.bf16.sustained_fraction < 0.85);
        QVERIFY(v.model.gemm.fp8.sustained_fraction > 0.5 && v.model.gemm.fp8.sustained_fraction < 0.85);
        QVERIFY(v.model.clock.burst_factor >= 1 && v.model.clock.burst_factor < 1.3);
        QVERIFY(v.model.gemm.launch_us > 0 && v.model.gemm.launch_us < 10);
        // Every row has a model time.
        for (const OpRowError& r : v.rows) QVERIFY2(r.model_s > 0 && std::isfinite(r.model_s), r.shape.c_str());
    }

    // The fit is deterministic: the same table gives the same parameters.
    void fitIsDeterministic() {
        const Loaded<OpTable> t = load_op_table(presets_dir() / "measurements" / "h200-per-op-2026-12.json");
        QVERIFY(t.ok());
        OpTable small = *t.value;
        small.gemm_fp8.clear();
        small.attention.resize(8);
        const OpValidation a = validate_op_table(small, GpuDatasheet{});
        const OpValidation b = validate_op_table(small, GpuDatasheet{});
        QCOMPARE(format_op_validation_json(a), format_op_validation_json(b));
    }
};

QTEST_APPLESS_MAIN(TestOpRates)
#include "test_op_rates.moc"
