// Fidelity guard: the model against the published measurements shipped in presets/validation.
//
// Megatron-LM's Table 1 (Narayanan et al., SC21) does not publish the microbatch size or the
// pipeline interleaving; as the data file allows, each prediction takes the fastest feasible
// value of those two knobs (and only those). Every row runs on the one DGX A100 preset.
#include <QtTest>

#include <cmath>
#include <filesystem>

#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/validation.hpp"

using namespace comet;
namespace fs = std::filesystem;

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void narayanan2021WithinBounds();
    void publishedKnobsAreKept();
    void malformedMeasurementFileIsRefused();
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
        const Prediction p = predict_case(mc, node->node);
        QVERIFY2(p.result.feasible, (mc.id + ": " + explain(p.result)).c_str());
        const double err = p.error();
        qInfo("%-26s measured %8.3f s  predicted %8.3f s  %+5.1f %%  (%s)", mc.id.c_str(), mc.measured_iteration_s,
              p.result.iteration_s, 100 * err, format_strategy(p.strategy).c_str());
        sum += std::fabs(err);
        worst = std::max(worst, std::fabs(err));
    }
    const double mean = sum / double(set.value->cases.size());
    qInfo("mean absolute error %.2f %%, worst %.2f %%", 100 * mean, 100 * worst);
    QVERIFY2(mean <= 0.05, "mean absolute error above 5 %");
    QVERIFY2(worst <= 0.10, "worst-case error above 10 %");
}

void TestValidation::publishedKnobsAreKept() {
    const auto set = load_measurements(presets_dir() / "validation" / "megatron-narayanan-2021.json");
    QVERIFY(set.ok());
    std::vector<std::string> errors;
    const auto nodes = load_node_presets(errors);
    for (const auto& mc : set.value->cases) {
        const Prediction p = predict_case(mc, match_node_preset(nodes, mc.hardware)->node);
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
}

QTEST_APPLESS_MAIN(TestValidation)
#include "test_validation.moc"
