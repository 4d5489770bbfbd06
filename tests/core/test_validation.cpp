// Fidelity guard: the model against the published measurements shipped in presets/validation.
//
// Megatron-LM's Table 1 (Narayanan et al., SC21) does not publish the microbatch size or the
// pipeline interleaving; as the data file allows, each prediction takes the fastest feasible
// value of those two knobs (and only those). Every row runs on the one DGX A100 preset.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <tuple>

#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"

using namespace comet;
namespace fs = std::filesystem;

namespace {
// One shipped table of presets/validation/, predicted on the shipped node and model presets.
ValidationRun validate_shipped(const char* table) {
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const auto models = load_model_presets(errors);
    return run_validation({presets_dir() / "validation" / table}, nodes, models, load_software_presets(errors));
}

// The software preset a row runs on (its own, its table's, or the one its form is read as).
SoftwareSpec software_of(const MeasuredCase& mc) {
    std::vector<std::string> errors;
    const auto all = load_software_presets(errors);
    const SoftwarePreset* p = match_software_preset(all, mc.software);
    if (p == nullptr) qFatal("no software preset for %s", mc.software.c_str());
    return row_software(mc, p->software);  // with the row's own settings
}
}  // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void narayanan2021WithinBounds();
    void publishedKnobsAreKept();
    void malformedMeasurementFileIsRefused();
    void microbatchSearchTriesTheDivisorsOfAHugeBatch();
    void rowWithoutCandidatesSaysWhy();
    void rowsNameTheirSoftwareAndKnownKeys();
    void erratumIsCheckedAndListed();
    void megatronBridgeIsExpressedAndBounded();
    void dlrmRowsSearchTheTableLayout();
    void maxtextTpuRowsAreListedEvenWhenTheyDoNotFit();
    void trustBandTakesTheNarrowestBasisWithEnoughRuns();
    void trustBandOfTheShippedTablesCoversTheirRuns();
};

void TestValidation::narayanan2021WithinBounds() {
    const auto set = load_measurements(presets_dir() / "validation" / "megatron-narayanan-2021.json");
    QVERIFY2(set.ok(), set.error_text().c_str());
    QCOMPARE(set.value->cases.size(), std::size_t{10});
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    QVERIFY(errors.empty());
    double sum = 0, worst = 0;
    for (const auto& mc : set.value->cases) {
        const NodePreset* node = match_node_preset(nodes, mc.hardware);
        QVERIFY2(node, mc.hardware.c_str());
        QCOMPARE(QString::fromStdString(node->id), QStringLiteral("dgx-a100-80gb"));
        const Prediction p = predict_case(mc, node->node, software_of(mc));
        QVERIFY2(p.result.feasible, (mc.id + ": " + explain(p.result)).c_str());
        const double err = p.error();
        qInfo("%-26s measured %8.3f s  predicted %8.3f s  %+5.1f %%  (%s)", mc.id.c_str(), mc.measured_iteration_s, p.result.iteration_s,
              100 * err, format_strategy(p.strategy).c_str());
        sum += std::fabs(err);
        worst = std::max(worst, std::fabs(err));
    }
    const double mean = sum / double(set.value->cases.size());
    qInfo("mean absolute error %.2f %%, worst %.2f %%", 100 * mean, 100 * worst);
    // 1.8 % / 4.2 % while the A100's GEMM constants were set on this table; with the constants
    // derived from the measured Hopper fit (docs/model.md, "GEMM time" and "Calibration") every row
    // is predicted faster than it ran (8.6 % / 11.1 %, -8.6 % signed): what the table-set 0.69
    // compensated (2021 software) is not priced, and is not put back.
    QVERIFY2(mean <= 0.10, "mean absolute error above 10 %");
    QVERIFY2(worst <= 0.12, "worst-case error above 12 %");
}

void TestValidation::publishedKnobsAreKept() {
    const auto set = load_measurements(presets_dir() / "validation" / "megatron-narayanan-2021.json");
    QVERIFY(set.ok());
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const auto& mc : set.value->cases) {
        const Prediction p = predict_case(mc, match_node_preset(nodes, mc.hardware)->node, software_of(mc));
        QCOMPARE(p.strategy.tp, mc.config.strategy.tp);
        QCOMPARE(p.strategy.pp, mc.config.strategy.pp);
        QCOMPARE(p.strategy.dp, mc.config.strategy.dp);
        QCOMPARE(p.strategy.recompute, Recompute::full);
        QVERIFY(p.searched > 1);
        // The chosen microbatch really is the fastest feasible one for this interleaving.
        Config c = mc.config;
        c.node = match_node_preset(nodes, mc.hardware)->node;
        c.cluster.nodes = int(accelerators_used(c.strategy) / c.node.accelerators);
        c.strategy.interleave = p.strategy.interleave;
        for (int b = 1; b <= 16; b *= 2) {
            c.strategy.microbatch = b;
            const Result r = evaluate(c);
            if (r.feasible) QVERIFY(r.iteration_s >= p.result.iteration_s * (1 - 1e-12));
        }
    }
}

void TestValidation::malformedMeasurementFileIsRefused() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "m.json";
    QFile f(QString::fromStdString(file.string()));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"cases": [{"id": "x", "model": {"layers": 2, "hidden": "big"}, "gpus": 8, "tp": 8, "pp": 1, "dp": 1,
               "global_batch": 8, "measured": {"iteration_time_s_derived": 1}}]})");
    f.close();
    const auto set = load_measurements(file);
    QVERIFY(!set.ok());
    QVERIFY2(QString::fromStdString(set.error_text()).contains("cases[0].model.hidden"), set.error_text().c_str());
    // A row's multi-token prediction count, negative or as text, is refused by name.
    for (const char* bad : {"-1", "\"one\""}) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write((std::string(R"({"cases": [{"id": "x", "model": {"layers": 2, "hidden": 64, "heads": 2, "ffn_hidden": 256,
                 "vocab": 100, "seq_len": 64, "mtp_layers": )") +
                 bad + R"(}, "gpus": 8, "tp": 8, "pp": 1, "dp": 1,
                 "global_batch": 8, "measured": {"iteration_time_s": 1}}]})")
                    .c_str());
        f.close();
        const auto m = load_measurements(file);
        QVERIFY(!m.ok());
        QVERIFY2(QString::fromStdString(m.error_text()).contains("cases[0].model.mtp_layers"), m.error_text().c_str());
    }
    // A row's dispatcher, pipeline overlap and offloads, of the wrong kind, are refused by name.
    const std::pair<const char*, const char*> bad_strategy[] = {
        {R"("ep_dispatch": "deepep")", R"(ep_dispatch = "deepep": must be one of all_to_all, hierarchical)"},
        {R"("ep_dispatch": 2)", "ep_dispatch"},
        {R"("pp_overlap": "yes")", "pp_overlap"},
        {R"("offload_activations": "yes")", R"(offload_activations: expected true or false, got "yes")"},
        {R"("offload_weights": 1)", "offload_weights: expected true or false, got 1"},
        {R"("offload_optimizer": null)", "offload_optimizer: expected true or false, got null"}};
    for (const auto& [bad, expected] : bad_strategy) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write((std::string(R"({"cases": [{"id": "x", "model": {"layers": 2, "hidden": 64, "heads": 2, "ffn_hidden": 256,
                 "vocab": 100, "seq_len": 64}, "gpus": 8, "global_batch": 8, "strategy": {"tp": 8, "pp": 1, )") +
                 bad + R"(}, "measured": {"iteration_time_s": 1}}]})")
                    .c_str());
        f.close();
        const auto m = load_measurements(file);
        QVERIFY(!m.ok());
        QVERIFY2(QString::fromStdString(m.error_text()).contains(expected), m.error_text().c_str());
        QVERIFY2(QString::fromStdString(m.error_text()).contains("cases[0].strategy"), m.error_text().c_str());
    }
}

// A row without a published microbatch tries every divisor of its per-replica batch, in
// ascending order, and only those: 735134400 = 2^6 * 3^3 * 5^2 * 7 * 11 * 13 * 17 (within the
// model's 1e9 sequences) has 7 * 4 * 3 * 2^4 = 1344 divisors, each with four recomputations (none,
// selective, full, and full of one of the two layers). A scan of every value took seconds.
void TestValidation::microbatchSearchTriesTheDivisorsOfAHugeBatch() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "m.json";
    QFile f(QString::fromStdString(file.string()));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"cases": [{"id": "huge", "hardware": "dgx-h100", "model": {"layers": 2, "hidden": 64, "heads": 2,
               "ffn_hidden": 256, "vocab": 100, "seq_len": 64}, "gpus": 1, "global_batch": 735134400,
               "strategy": {"tp": 1, "pp": 1}, "measured": {"iteration_time_s": 1}}]})");
    f.close();
    const auto set = load_measurements(file);
    QVERIFY2(set.ok(), set.error_text().c_str());
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const MeasuredCase& mc = set.value->cases.front();
    const Prediction p = predict_case(mc, match_node_preset(nodes, mc.hardware)->node, software_of(mc));
    QCOMPARE(p.searched, 1344 * 4);
    QVERIFY2(p.result.feasible, explain(p.result).c_str());
    QCOMPARE(735134400 % p.strategy.microbatch, 0);
}

// Issue 38, item 4: a row's software comes from the row, else its table, else the form it is read
// as; a row whose software or hardware has no preset is listed, not fatal; a key the reader does
// not know is refused with a did-you-mean; an unpublished vp is searched like the microbatch.
void TestValidation::rowsNameTheirSoftwareAndKnownKeys() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "s.json";
    QFile f(QString::fromStdString(file.string()));
    auto write = [&](const std::string& table_keys, const std::string& row_keys, const std::string& strategy) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(("{" + table_keys + R"("cases": [{"id": "r", "hardware": "dgx-h100", )" + row_keys +
                 R"("model": {"layers": 8, "hidden": 512, "heads": 8, "ffn_hidden": 2048, "vocab": 1000, "seq_len": 512},
                 "gpus": 16, "global_batch": 64, "strategy": )" +
                 strategy + R"(, "measured": {"iteration_time_s": 1}}]})")
                    .c_str());
        f.close();
    };
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const auto models = load_model_presets(errors);
    const auto software = load_software_presets(errors);
    // The table's software, by alias; vp unpublished at pp 2: searched among 1, 2, 4.
    write(R"("software": "Megatron-Bridge 26.08", )", "", R"({"tp": 1, "pp": 2})");
    ValidationRun run = run_validation({file}, nodes, models, software);
    QVERIFY(run.errors.empty());
    const Prediction& p = run.tables.front().predictions.front();
    QCOMPARE(QString::fromStdString(p.measured.software), QStringLiteral("Megatron-Bridge 26.08"));
    QVERIFY(!p.measured.software_assumed);
    QCOMPARE(run.software.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(run.software.front().node_id), QStringLiteral("megatron-core-te-eager"));
    QVERIFY2(p.result.feasible, explain(p.result).c_str());
    QVERIFY(std::find(p.searched_knobs.begin(), p.searched_knobs.end(), "interleave") != p.searched_knobs.end());
    QVERIFY(p.strategy.interleave == 1 || p.strategy.interleave == 2 || p.strategy.interleave == 4);
    // The row's own software wins over the table's; a published vp is kept.
    write(R"("software": "megatron-core-te-eager", )", R"("software": "torchtitan", )", R"({"tp": 1, "pp": 2, "vp": 2})");
    run = run_validation({file}, nodes, models, software);
    QCOMPARE(QString::fromStdString(run.software.front().node_id), QStringLiteral("torchtitan-fsdp2"));
    QCOMPARE(run.tables.front().predictions.front().strategy.interleave, 2);
    QVERIFY(run.tables.front().predictions.front().searched_knobs.end() ==
            std::find(run.tables.front().predictions.front().searched_knobs.begin(),
                      run.tables.front().predictions.front().searched_knobs.end(), "interleave"));
    // No software named anywhere: the stack the row's form is read as, and said so.
    write("", "", R"({"tp": 1, "pp": 2, "vp": 1})");
    run = run_validation({file}, nodes, models, software);
    QVERIFY(run.tables.front().predictions.front().measured.software_assumed);
    QCOMPARE(QString::fromStdString(run.software.front().node_id), QStringLiteral("megatron-core-te-eager"));
    // Unknown software or hardware: listed as not expressible, the run goes on.
    write(R"("software": "no-such-stack", )", "", R"({"tp": 1, "pp": 2, "vp": 1})");
    run = run_validation({file}, nodes, models, software);
    QVERIFY(run.errors.empty());
    QCOMPARE(run.all.inexpressible, 1);
    QVERIFY(QString::fromStdString(run.tables.front().predictions.front().measured.inexpressible)
                .startsWith(QStringLiteral("no software preset matches \"no-such-stack\"")));
    write("", R"("system": "x", )", R"({"tp": 1, "pp": 2, "vp": 1})");
    {
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::string text = f.readAll().toStdString();
        f.close();
        text.replace(text.find("dgx-h100"), 8, "tpu-v99");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.c_str());
        f.close();
    }
    run = run_validation({file}, nodes, models, software);
    QVERIFY(run.errors.empty());
    QCOMPARE(run.all.inexpressible, 1);
    QVERIFY(QString::fromStdString(run.tables.front().predictions.front().measured.inexpressible).contains("tpu-v99"));
    // Unknown keys: refused with the path and the nearest known key, never ignored.
    write("", "", R"({"tp": 1, "pp": 2, "zero": 3})");
    auto set = load_measurements(file);
    QVERIFY(!set.ok());
    QVERIFY2(set.error_text().find("cases[0].strategy.zero: unknown key (did you mean \"fsdp\"?); allowed: tp, pp,") != std::string::npos,
             set.error_text().c_str());
    write("", R"("hardwre": "dgx-h100", )", R"({"tp": 1, "pp": 2})");
    set = load_measurements(file);
    QVERIFY(!set.ok());
    QVERIFY2(set.error_text().find("cases[0].hardwre: unknown key (did you mean \"hardware\"?)") != std::string::npos,
             set.error_text().c_str());
    // A table's software that is not a name.
    write(R"("software": 3, )", "", R"({"tp": 1, "pp": 2})");
    set = load_measurements(file);
    QVERIFY(!set.ok());
    QVERIFY2(set.error_text().find("software: expected the name of a software preset, got 3") != std::string::npos,
             set.error_text().c_str());

    // A row's own software settings (what its run set otherwise than the preset) apply on top of
    // the preset, each with the field's type and range, and are listed with the table.
    write(R"("software": "megatron-core-te-eager", )", "", R"({"tp": 1, "pp": 2, "vp": 1})");
    run = run_validation({file}, nodes, models, software);
    const Prediction plain = run.tables.front().predictions.front();
    write(R"("software": "megatron-core-te-eager", )",
          R"("software_settings": {"moment_bytes": 2, "master_weights": false, "graph_scope": "full"}, )",
          R"({"tp": 1, "pp": 2, "vp": 1})");
    run = run_validation({file}, nodes, models, software);
    QVERIFY(run.errors.empty());
    const Prediction& set_row = run.tables.front().predictions.front();
    QVERIFY2(set_row.result.feasible, explain(set_row.result).c_str());
    QCOMPARE(set_row.measured.software_settings.size(), std::size_t{3});
    const SoftwareSpec ran = software_of(set_row.measured);
    QCOMPARE(ran.moment_bytes, 2.0);
    QCOMPARE(ran.master_weights, false);
    QCOMPARE(ran.graph_scope, GraphScope::full);
    QCOMPARE(ran.host_op_us, 20.4);  // the rest is the preset's
    QVERIFY(set_row.result.hbm.optimizer_bytes < plain.result.hbm.optimizer_bytes);
    QVERIFY(set_row.result.iteration_s < plain.result.iteration_s);                 // no host time per op
    QCOMPARE(run.software.front().node_id, std::string("megatron-core-te-eager"));  // grouped by its preset
    const std::string text = format_validation_text(run, nodes, software, "");
    QVERIFY2(text.find("r: graph_scope full, master_weights false, moment_bytes 2") != std::string::npos, text.c_str());
    // Hostile settings: refused with the path, the value and what is allowed.
    const std::pair<const char*, const char*> hostile[] = {
        {R"("software_settings": {"moment_byte": 2}, )",
         "cases[0].software_settings.moment_byte: not a software field (known: host_op_us,"},
        {R"("software_settings": {"moment_bytes": 9}, )",
         "cases[0].software_settings.moment_bytes = 9: must be 0 to 8 bytes per moment and parameter"},
        {R"("software_settings": {"moment_bytes": "2"}, )", "cases[0].software_settings.moment_bytes: expected a number, got \"2\""},
        {R"("software_settings": {"hbm_allocator_margin": -0.1}, )",
         "cases[0].software_settings.hbm_allocator_margin = -0.1: must be a fraction from 0 to 0.5"},
        {R"("software_settings": {"master_weights": 0}, )", "cases[0].software_settings.master_weights: expected true or false, got 0"},
        {R"("software_settings": {"graph_scope": "most"}, )",
         "cases[0].software_settings.graph_scope = \"most\": must be one of none, dense, full"},
        {R"("software_settings": [], )", "cases[0].software_settings: expected an object of software fields"},
        {R"("software_settings": {}, )", "cases[0].software_settings: expected an object of software fields"},
    };
    for (const auto& [row, expected] : hostile) {
        write("", row, R"({"tp": 1, "pp": 2})");
        set = load_measurements(file);
        QVERIFY(!set.ok());
        QVERIFY2(set.error_text().find(expected) != std::string::npos, set.error_text().c_str());
    }
}

// A 2021-format row whose pipeline no interleaving splits evenly (80 layers at pp 35), or whose
// batch is smaller than dp, has no candidate to search: the published strategy is evaluated, so
// the row carries a reason (found by fuzz_validation: it carried an empty result before).
void TestValidation::rowWithoutCandidatesSaysWhy() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "m.json";
    QFile f(QString::fromStdString(file.string()));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"cases": [
        {"id": "pp35", "hardware": "dgx-a100-80gb", "model": {"layers": 80, "hidden": 256, "heads": 4, "ffn_hidden": 1024,
         "vocab": 1000, "seq_len": 512}, "gpus": 280, "tp": 8, "pp": 35, "dp": 1, "global_batch": 70,
         "measured": {"iteration_time_s_derived": 1}},
        {"id": "batch-below-dp", "hardware": "dgx-a100-80gb", "model": {"layers": 4, "hidden": 256, "heads": 4,
         "ffn_hidden": 1024, "vocab": 1000, "seq_len": 512}, "gpus": 16, "tp": 1, "pp": 1, "dp": 16, "global_batch": 8,
         "measured": {"iteration_time_s_derived": 1}}]})");
    f.close();
    const auto set = load_measurements(file);
    QVERIFY2(set.ok(), set.error_text().c_str());
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const MeasuredCase& mc : set.value->cases) {
        const Prediction p = predict_case(mc, match_node_preset(nodes, mc.hardware)->node, software_of(mc));
        QCOMPARE(p.searched, 1);
        QCOMPARE(p.result.feasible, p.result.reason == Infeasible::none);
        if (!p.result.feasible) QVERIFY2(!explain(p.result).empty(), mc.id.c_str());
        QCOMPARE(p.strategy.pp, mc.config.strategy.pp);
        QCOMPARE(p.strategy.dp, mc.config.strategy.dp);
    }
}

// A row may correct a field its source printed wrongly (`erratum`): the row's strategy holds
// what ran and is what the model predicts with; the published value and the evidence travel with
// the row and the validate table lists them. Anything else under `erratum` is refused by name.
void TestValidation::erratumIsCheckedAndListed() {
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "m.json";
    QFile f(QString::fromStdString(file.string()));
    auto write_row = [&](const std::string& strategy_extra, const std::string& erratum, bool flat = false) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        const std::string model = R"("model": {"layers": 4, "hidden": 256, "heads": 4, "ffn_hidden": 1024, "vocab": 1000, "seq_len": 512})";
        const std::string where =
            flat ? R"("tp": 1, "pp": 1, "dp": 8)" : R"("strategy": {"tp": 1, "pp": 1, "microbatch": 1)" + strategy_extra + "}";
        f.write((R"({"cases": [{"id": "row", "hardware": "dgx-h100", )" + model + R"(, "gpus": 8, "global_batch": 16, )" + where +
                 (erratum.empty() ? "" : R"(, "erratum": )" + erratum) + R"(, "measured": {"iteration_time_s": 1}}]})")
                    .c_str());
        f.close();
    };
    // A valid erratum: loaded, predicted with the corrected microbatch, listed under the table.
    write_row(R"(, "ep": 1)", R"({"published": {"microbatch": 2}, "reason": "the GA column says 8 microbatches"})");
    const auto set = load_measurements(file);
    QVERIFY2(set.ok(), set.error_text().c_str());
    const MeasuredCase& mc = set.value->cases.front();
    QCOMPARE(mc.config.strategy.microbatch, 1);
    QCOMPARE(QString::fromStdString(mc.corrected), QStringLiteral("microbatch 2 -> 1"));
    QCOMPARE(QString::fromStdString(mc.correction_reason), QStringLiteral("the GA column says 8 microbatches"));
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const auto models = load_model_presets(errors);
    const ValidationRun run = run_validation({file}, nodes, models, load_software_presets(errors));
    QCOMPARE(run.tables.front().predictions.front().strategy.microbatch, 1);
    const QString text = QString::fromStdString(format_validation_text(run, nodes, {}, ""));
    QVERIFY2(text.contains("Corrected from the source") && text.contains("row: microbatch 2 -> 1. the GA column says 8 microbatches"),
             qPrintable(text));
    // --detail prints the row as it was priced: on the software preset the row ran on (the table
    // names none: Megatron-Core + TE eager, 20.4 us per op), not on an unnamed stack without host time.
    const auto software = load_software_presets(errors);
    const QString detailed = QString::fromStdString(format_validation_text(run, nodes, software, "row"));
    QVERIFY2(detailed.contains("Software    Megatron-Core + TE (eager): 20.4 us of host time per op"), qPrintable(detailed));
    // A table without errata prints no such section.
    write_row("", "");
    const ValidationRun plain = run_validation({file}, nodes, models, load_software_presets(errors));
    QVERIFY(!QString::fromStdString(format_validation_text(plain, nodes, {}, "")).contains("Corrected from the source"));

    // Hostile errata, each refused with the key path and what is allowed.
    const std::tuple<const char*, const char*, bool> bad[] = {
        {R"("ep 8")", R"(cases[0].erratum: expected an object with "published" and "reason", got "ep 8")", false},
        {R"({"published": {"ep": 8}, "reason": "x", "why": 1})", "cases[0].erratum.why: unknown key (allowed: published, reason)", false},
        {R"({"published": {"ep": 8}})", "cases[0].erratum.reason: missing or empty", false},
        {R"({"published": {"ep": 8}, "reason": "  "})", "cases[0].erratum.reason: missing or empty", false},
        {R"({"published": {"ep": 8}, "reason": 3})", "cases[0].erratum.reason: expected a string, got 3", false},
        {R"({"published": {}, "reason": "x"})", "cases[0].erratum.published: expected an object of the fields", false},
        {R"({"published": [8], "reason": "x"})", "cases[0].erratum.published: expected an object of the fields", false},
        {R"({"published": {"gbs": 8}, "reason": "x"})", "cases[0].erratum.published.gbs: not a strategy field (allowed: tp, pp", false},
        {R"({"published": {"ep": "eight"}, "reason": "x"})", R"(cases[0].erratum.published.ep: expected an integer >= 1, got "eight")",
         false},
        {R"({"published": {"ep": 0}, "reason": "x"})", "cases[0].erratum.published.ep: expected an integer >= 1, got 0", false},
        {R"({"published": {"ep": 1e300}, "reason": "x"})", "cases[0].erratum.published.ep: expected an integer >= 1", false},
        {R"({"published": {"ep": 8}, "reason": "x"})", "cases[0].erratum.published.ep: the row's strategy does not give ep", false},
        {R"({"published": {"microbatch": 1}, "reason": "x"})", "cases[0].erratum.published.microbatch = 1: the same as the strategy's",
         false},
        {R"({"published": {"tp": 2}, "reason": "x"})", "cases[0].erratum: only a row with a strategy object", true}};
    for (const auto& [erratum, expected, flat] : bad) {
        write_row("", erratum, flat);
        const auto m = load_measurements(file);
        QVERIFY2(!m.ok(), erratum);
        QVERIFY2(QString::fromStdString(m.error_text()).contains(QString::fromUtf8(expected)), m.error_text().c_str());
    }
}

// MLPerf Training DLRM-DCNv2 (every v5.0 submission): each row is the MLPerf model on its
// hardware with CUDA graphs and element-wise AdaGrad, all GPUs data-parallel; the tables'
// sharding, placement and state tier are not published and are searched, the winner being
// the fastest feasible layout (checked against every other). Hostile DLRM rows are refused with
// the key path and what is allowed.
void TestValidation::dlrmRowsSearchTheTableLayout() {
    const ValidationRun run = validate_shipped("mlperf-training-dlrm.json");
    QVERIFY2(run.errors.empty(), run.errors.empty() ? "" : run.errors.front().c_str());
    const TableValidation& t = run.tables.front();
    QCOMPARE(t.predictions.size(), std::size_t{12});
    QCOMPARE(t.stats.inexpressible, 0);
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const Prediction& p : t.predictions) {
        const MeasuredCase& mc = p.measured;
        QCOMPARE(mc.config.workload, Workload::dlrm);
        QVERIFY(mc.config.training.cuda_graphs);
        QCOMPARE(mc.config.dlrm.table_optimizer, EmbeddingOptimizer::adagrad);
        QCOMPARE(p.strategy.dp, int(accelerators_used(mc.config.strategy)));
        QCOMPARE(p.searched_knobs, (std::vector<std::string>{"emb_sharding", "emb_placement", "emb_state"}));
        QVERIFY2(p.result.feasible, (mc.id + ": " + explain(p.result)).c_str());
        // The chosen layout is the fastest feasible one.
        Config c = mc.config;
        c.node = match_node_preset(nodes, mc.hardware)->node;
        c.cluster.nodes = int((accelerators_used(c.strategy) + c.node.accelerators - 1) / c.node.accelerators);
        for (const auto sh : {EmbeddingSharding::table_wise, EmbeddingSharding::row_wise, EmbeddingSharding::column_wise}) {
            c.strategy.emb_sharding = sh;
            const Result r = evaluate(c);
            if (r.feasible) QVERIFY(r.iteration_s >= p.result.iteration_s * (1 - 1e-12));
        }
    }
    // Eleven of the twelve within 20 % (the 64-GPU GB200 row is the model's known miss,
    // docs/model.md, "Validation", +30 % since an all-to-all pays one latency per tier); the
    // table as a whole within its bounds.
    int within = 0;
    for (const Prediction& p : t.predictions) within += std::fabs(p.error()) <= 0.20 ? 1 : 0;
    QVERIFY2(within >= 11, qPrintable(QString::number(within)));
    QVERIFY2(t.stats.mean_abs <= 0.11, qPrintable(QString::number(t.stats.mean_abs)));
    QVERIFY2(t.stats.worst_abs <= 0.31, qPrintable(QString::number(t.stats.worst_abs)));

    // Hostile DLRM rows.
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "d.json";
    QFile f(QString::fromStdString(file.string()));
    const auto models = load_model_presets(errors);
    auto load_row = [&](const std::string& fields) {
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write((R"({"cases": [{"id": "d", "workload": "dlrm", "hardware": "dgx-b200", "gpus": 8, "global_batch": 65536, )" + fields +
                 R"(, "measured": {"iteration_time_s": 0.002}}]})")
                    .c_str());
        f.close();
    };
    load_row(R"("model_name": "dlrm-dcnv2-mlperf", "strategy": {"emb_sharding": "row_wise"})");
    {
        const auto set = load_measurements(file, models);
        QVERIFY2(set.ok(), set.error_text().c_str());
        const Prediction p =
            predict_case(set.value->cases.front(), match_node_preset(nodes, "dgx-b200")->node, software_of(set.value->cases.front()));
        QCOMPARE(p.strategy.emb_sharding, EmbeddingSharding::row_wise);  // published: kept
        QCOMPARE(p.searched_knobs, (std::vector<std::string>{"emb_placement", "emb_state"}));
    }
    const std::pair<const char*, const char*> bad[] = {
        {R"("model_name": "llama3-8b")", R"(cases[0].model_name = "llama3-8b": names no DLRM model preset)"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "tp": 2)", "cases[0].tp: not a DLRM row's key"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "strategy": {"dp": 4})", "cases[0].strategy.dp = 4 differs from gpus = 8"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "strategy": {"tp": 1})", "cases[0].strategy.tp: not a DLRM strategy key (allowed: dp,"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "strategy": {"emb_sharding": "diagonal"})",
         R"(cases[0].strategy.emb_sharding = "diagonal": must be one of table_wise, row_wise, column_wise)"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "dlrm": {"tables": []})",
         "cases[0].dlrm.tables: unknown key (allowed: embedding_dtype, table_optimizer)"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "dlrm": {"table_optimizer": "lion"})",
         R"(cases[0].dlrm.table_optimizer = "lion": must be one of)"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "cuda_graphs": "yes")", "cases[0].cuda_graphs"},
        {R"("model_name": "dlrm-dcnv2-mlperf", "workload": "cnn")", R"(cases[0].workload = "cnn": must be transformer or dlrm)"}};
    for (const auto& [fields, expected] : bad) {
        load_row(fields);
        const auto m = load_measurements(file, models);
        QVERIFY2(!m.ok(), fields);
        QVERIFY2(QString::fromStdString(m.error_text()).contains(QString::fromUtf8(expected)), m.error_text().c_str());
    }
}

// NVIDIA's Megatron-Bridge runs on DGX H100, DGX B200 and GB200 NVL72: every row expressed
// (uneven pipelines, MLA, sliding windows, FP8/MXFP8), the published strategy kept, only
// recomputation and TP overlap searched, and the errors held at today's level.
void TestValidation::megatronBridgeIsExpressedAndBounded() {
    const ValidationRun run = validate_shipped("megatron-bridge-2025.json");
    QVERIFY2(run.errors.empty(), run.errors.empty() ? "" : run.errors.front().c_str());
    QCOMPARE(run.tables.size(), std::size_t{1});
    const TableValidation& t = run.tables.front();
    QCOMPARE(t.predictions.size(), std::size_t{20});
    QCOMPARE(t.stats.inexpressible, 0);
    QCOMPARE(t.stats.cases, 20);
    for (const Prediction& p : t.predictions) {
        QVERIFY2(p.measured.inexpressible.empty(), p.measured.id.c_str());
        QVERIFY2(p.result.feasible, (p.measured.id + ": " + explain(p.result)).c_str());
        QCOMPARE(p.strategy.tp, p.measured.config.strategy.tp);
        QCOMPARE(p.strategy.pp, p.measured.config.strategy.pp);
        QCOMPARE(p.strategy.cp, p.measured.config.strategy.cp);
        QCOMPARE(p.strategy.ep, p.measured.config.strategy.ep);
        QCOMPARE(p.strategy.interleave, p.measured.config.strategy.interleave);
        QCOMPARE(p.strategy.microbatch, p.measured.config.strategy.microbatch);
        QVERIFY(std::find(p.searched_knobs.begin(), p.searched_knobs.end(), "recompute") != p.searched_knobs.end());
        QVERIFY(std::find(p.searched_knobs.begin(), p.searched_knobs.end(), "microbatch") == p.searched_knobs.end());
        // Multi-token prediction only where the row says it trains with it (the table's
        // convention), whatever the DeepSeek-V3 preset carries.
        const bool mtp_row = p.measured.id == "mbridge-25.11-dgx-b200-deepseek-v3-256-fp8-mx";
        QCOMPARE(p.measured.config.model.mtp_layers, mtp_row ? 1 : 0);
        qInfo("%-48s measured %8.3f s  predicted %8.3f s  %+6.1f %%", p.measured.id.c_str(), p.measured.measured_iteration_s,
              p.result.iteration_s, 100 * p.error());
    }
    // Three kinds of hardware, each with its own statistics; errors on both sides.
    QCOMPARE(t.hardware.size(), std::size_t{3});
    QVERIFY(t.stats.too_slow > 0 && t.stats.too_fast > 0);
    qInfo("mean absolute error %.1f %%, worst %.1f %%, signed %+.1f %%", 100 * t.stats.mean_abs, 100 * t.stats.worst_abs,
          100 * t.stats.mean_signed);
    // Today's level (issue 13's target is 10 % mean, 25 % worst; the table was at 9.5 % and
    // 24.3 % until issue 37 removed two errors that compensated its fast MoE rows: a host-bound
    // pass now lends its idle time to its collectives, and an all-to-all pays one latency per
    // tier; docs/model.md, "Validation"), and 18.9 % and 52.5 % since issue 38 moved the host time
    // per kernel from the node presets (45 us, a residual) to the software preset (20.4 us,
    // measured): the fast MoE rows lost the constant that held them up), and 19.1 % and 59.0 %
    // since the rows run on the software their recipe names (megatron-bridge-te-graphs: the
    // dense layers' host time is gone; the fast B200 Qwen3-30B-A3B row went -52.6 -> -59.0 %).
    QVERIFY2(t.stats.mean_abs <= 0.20, "mean absolute error above 20 %");
    QVERIFY2(t.stats.worst_abs <= 0.60, "worst-case error above 60 %");
    // The two rows that correct the published table say what it printed.
    int corrected = 0;
    for (const Prediction& p : t.predictions) {
        if (p.measured.corrected.empty()) continue;
        ++corrected;
        QVERIFY2(p.measured.id.find("gpt-oss-120b") != std::string::npos, p.measured.id.c_str());
        QVERIFY(!p.measured.correction_reason.empty());
    }
    QCOMPARE(corrected, 2);
    // The summary next to a node preset, and for one without published runs.
    const std::string h100 = validation_summary(run, "dgx-h100", "DGX H100");
    QVERIFY2(h100.rfind("DGX H100: 6 published runs, mean error ", 0) == 0, h100.c_str());
    QCOMPARE(QString::fromStdString(validation_summary(run, "tpu-v5p", "TPU v5p")),
             QStringLiteral("TPU v5p: not validated against published runs"));
    // A software preset: over every hardware, then on one node, with the sign of its error.
    int te_rows = 0, te_gb200 = 0;
    for (const Prediction& p : t.predictions) {
        if (p.measured.software != "megatron-bridge-te-graphs") continue;
        ++te_rows;
        te_gb200 += p.measured.hardware == "gb200-nvl72" ? 1 : 0;
    }
    QVERIFY(te_rows > 0 && te_gb200 > 0);
    const std::string te = software_validation_summary(run, "megatron-bridge-te-graphs", "TE graphs", "gb200-nvl72", "GB200");
    QVERIFY2(te.rfind("TE graphs: " + std::to_string(te_rows) + " published runs, mean error ", 0) == 0, te.c_str());
    QVERIFY2(te.find(", signed -") != std::string::npos, te.c_str());  // every one of them predicted too fast
    QVERIFY2(te.find(". On GB200: " + std::to_string(te_gb200) + " run") != std::string::npos, te.c_str());
    QVERIFY2(te.ends_with(" %"), te.c_str());
    QCOMPARE(QString::fromStdString(software_validation_summary(run, "megatron-bridge-te-graphs", "TE graphs", "dgx-h100", "DGX H100"))
                 .section(". ", -1),
             QStringLiteral("On DGX H100: no published run"));
    QCOMPARE(QString::fromStdString(software_validation_summary(run, "torchtitan-fsdp2", "torchtitan", "", "")),
             QStringLiteral("torchtitan: not validated against published runs. On an edited node: not validated"));
}

// Google's MaxText recipes on TPU7x and TPU v6e: the rows that fit keep the published FSDP
// strategy and batch and are within bounds; the rows whose recipe offloads the decoder-layer
// inputs to host memory carry that offload onto the TPU preset's host-memory tier, and the 405B
// rows fit only through it; the rest are listed with the memory the model finds, never dropped,
// and the node summary says so.
void TestValidation::maxtextTpuRowsAreListedEvenWhenTheyDoNotFit() {
    const ValidationRun run = validate_shipped("maxtext-tpu-2026.json");
    QVERIFY2(run.errors.empty(), run.errors.empty() ? "" : run.errors.front().c_str());
    const TableValidation& t = run.tables.front();
    QCOMPARE(t.predictions.size(), std::size_t{18});
    QCOMPARE(t.stats.cases + t.stats.inexpressible, 18);
    int fitted = 0;
    for (const Prediction& p : t.predictions) {
        QCOMPARE(p.strategy.zero_stage, 3);  // FSDP over the chips, as published
        QCOMPARE(p.strategy.tp, 1);
        QCOMPARE(p.strategy.microbatch, p.measured.config.strategy.microbatch);
        if (!p.result.feasible) {
            QCOMPARE(p.result.reason, Infeasible::hbm_capacity);
            QVERIFY2(explain(p.result).find("does not fit in HBM") != std::string::npos, explain(p.result).c_str());
            continue;
        }
        ++fitted;
        // The published offload is kept, never searched away.
        const bool offloads = p.measured.config.strategy.offload_activations;
        QCOMPARE(p.strategy.offload_activations, offloads);
        // The dense Llama 3.1 rows on TPU7x (calibrated hardware, checked before the memory
        // layout was software) stay within 10 %; the rows the layout made fit are bounded by
        // the table's ctest bound and reported in docs/model.md, not here.
        const bool llama_tpu7x = p.measured.id.find("tpu7x-llama3.1") != std::string::npos;
        if (llama_tpu7x) QVERIFY2(std::abs(p.error()) <= 0.10, (p.measured.id + ": error above 10 %").c_str());
        if (!offloads) continue;
        // The layer inputs sit in host memory, and without that tier the row does not fit.
        QVERIFY(p.result.expanded.activations_bytes > 0);
        QVERIFY(p.result.expanded.used_bytes() <= p.result.expanded.capacity_bytes);
        Config c = p.measured.config;
        std::vector<std::string> errors;
        c.node = match_node_preset(load_node_presets(errors), p.measured.hardware)->node;
        c.software = software_of(p.measured);
        c.strategy = p.strategy;
        c.cluster.nodes = int(accelerators_used(c.strategy) / c.node.accelerators);
        QVERIFY(evaluate(c).feasible);
        c.strategy.offload_activations = false;
        const Result in_hbm = evaluate(c);
        QVERIFY(!in_hbm.feasible);
        QCOMPARE(in_hbm.reason, Infeasible::hbm_capacity);
    }
    // With MaxText's own memory layout (software preset maxtext-xla: fp32 weights without a
    // master copy, one fp32 array of logits, XLA's reserve and no caching allocator's margin)
    // 11 of the 18 runs fit; with Megatron-Core's layout, 6; with the layout but a caching
    // allocator's 2 GiB and 5 % on the node, 10. The rows' own software settings (bf16 weights
    // and moments for the 70B run on 32 v6e, a bf16 first moment on TPU7x) fit DeepSeek-V3 BF16: 12.
    QCOMPARE(fitted, 12);
    QVERIFY(t.stats.too_slow > 0 && t.stats.too_fast > 0);
    const std::string ironwood = validation_summary(run, "tpu-v7", "TPU7x");
    QVERIFY2(ironwood.rfind("TPU7x: 9 published runs, mean error ", 0) == 0, ironwood.c_str());
    QVERIFY2(ironwood.find(", 2 not expressible") != std::string::npos, ironwood.c_str());
    const std::string trillium = validation_summary(run, "tpu-v6e", "TPU v6e");
    QVERIFY2(trillium.rfind("TPU v6e: 3 published runs, mean error ", 0) == 0, trillium.c_str());
    QVERIFY2(trillium.find(", 4 not expressible") != std::string::npos, trillium.c_str());
}

QTEST_APPLESS_MAIN(TestValidation)
#include "test_validation.moc"

namespace {
ErrorStats stats_of(std::initializer_list<double> errors, double mfu = 0) {
    ErrorStats s;
    for (double e : errors) s.add(e, mfu);
    s.finish();
    return s;
}
}  // namespace

// The basis is node x software with >= trust_min_runs runs, else the node, else the software,
// else the group with most runs; the band is measured / predicted over the basis's runs.
void TestValidation::trustBandTakesTheNarrowestBasisWithEnoughRuns() {
    ErrorStats e = stats_of({-0.2, 0.1, -0.05});
    QCOMPARE(e.min_signed, -0.2);
    QCOMPARE(e.max_signed, 0.1);
    ValidationRun run;
    run.hardware.push_back({"h", "Node H", stats_of({-0.3, -0.1, 0.05, 0.2}, 0.4)});
    run.software.push_back({"s", "Stack S", stats_of({-0.5, 0.5, 0.0, 0.1, 0.2})});
    run.pairs.push_back({"h", "s", stats_of({-0.1, 0.05, 0.02}, 0.4)});
    run.pairs.push_back({"h", "t", stats_of({-0.3}, 0.35)});

    TrustBand pair = trust_band(run, "h", "Node H", "s", "Stack S");
    QCOMPARE(pair.runs, 3);
    QCOMPARE(QString::fromStdString(pair.basis), QStringLiteral("Node H with Stack S"));
    QVERIFY(std::fabs(pair.low - 1 / 1.05) < 1e-12);  // the largest error: measured 1/1.05 of the prediction
    QVERIFY(std::fabs(pair.high - 1 / 0.9) < 1e-12);  // the smallest
    QVERIFY(pair.low < 1 && pair.high > 1);
    QCOMPARE(pair.max_measured_mfu, 0.4);  // the node's, over every software
    QVERIFY(pair.mfu_above_published(0.41));
    QVERIFY(!pair.mfu_above_published(0.4));

    // One run of the node with "t": too few, the node's four runs are the basis.
    TrustBand node = trust_band(run, "h", "Node H", "t", "Stack T");
    QCOMPARE(node.runs, 4);
    QCOMPARE(QString::fromStdString(node.basis), QStringLiteral("Node H, any software"));
    QVERIFY(std::fabs(node.high - 1 / 0.7) < 1e-12);
    QVERIFY(std::fabs(node.low - 1 / 1.2) < 1e-12);

    // An edited node: the software over every node.
    TrustBand software = trust_band(run, "", "edited node", "s", "Stack S");
    QCOMPARE(software.runs, 5);
    QCOMPARE(QString::fromStdString(software.basis), QStringLiteral("Stack S, any hardware"));
    QCOMPARE(software.max_measured_mfu, 0.0);  // no node: no MFU flag
    QVERIFY(!software.mfu_above_published(0.99));

    // Fewer runs than trust_min_runs everywhere: the group with the most, and it says how many.
    ValidationRun thin;
    thin.hardware.push_back({"h", "Node H", stats_of({-0.1, 0.1})});
    thin.software.push_back({"s", "Stack S", stats_of({0.3})});
    TrustBand few = trust_band(thin, "h", "Node H", "s", "Stack S");
    QCOMPARE(few.runs, 2);
    QVERIFY(format_trust_band(few).find("2 published runs of Node H, any software") != std::string::npos);

    // Nothing: not validated, no band, no flag.
    TrustBand none = trust_band(run, "", "edited node", "", "edited software");
    QVERIFY(!none.validated());
    QCOMPARE(none.low, 1.0);
    QCOMPARE(none.high, 1.0);
    QCOMPARE(QString::fromStdString(format_trust_range(none)), QStringLiteral("not validated"));
    QCOMPARE(QString::fromStdString(format_trust_range(pair)), QStringLiteral("-5 % to +11 %"));
}

// Against the shipped tables: each node x software pair's band contains every one of its
// runs' measured / predicted times, and the MFU ceiling is that of a real run of the node.
void TestValidation::trustBandOfTheShippedTablesCoversTheirRuns() {
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    const auto software = load_software_presets(errors);
    const ValidationRun run = run_validation(validation_files(presets_dir() / "validation"), nodes, load_model_presets(errors), software);
    int pairs_checked = 0;
    for (const PairStats& p : run.pairs) {
        if (p.stats.cases < trust_min_runs) continue;
        const TrustBand band = trust_band(run, p.node_id, p.node_id, p.software_id, p.software_id);
        QCOMPARE(band.runs, p.stats.cases);
        double node_mfu = 0;
        for (const TableValidation& t : run.tables)
            for (const Prediction& pr : t.predictions) {
                if (!pr.result.feasible) continue;
                const NodePreset* n = match_node_preset(nodes, pr.measured.hardware);
                const SoftwarePreset* s = match_software_preset(software, pr.measured.software);
                if (!n || n->id != p.node_id) continue;
                if (pr.measured.config.workload == Workload::transformer)
                    node_mfu = std::max(node_mfu, pr.result.mfu * pr.result.iteration_s / pr.measured.measured_iteration_s);
                if (!s || s->id != p.software_id) continue;
                const double ratio = pr.measured.measured_iteration_s / pr.result.iteration_s;
                QVERIFY2(ratio >= band.low * (1 - 1e-9) && ratio <= band.high * (1 + 1e-9),
                         qPrintable(QString::fromStdString(pr.measured.id + ": " + format_trust_band(band))));
            }
        QVERIFY(std::fabs(band.max_measured_mfu - node_mfu) < 1e-12);
        ++pairs_checked;
    }
    QVERIFY(pairs_checked >= 5);
}
