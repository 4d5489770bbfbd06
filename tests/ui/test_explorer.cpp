// The explorer end to end, offscreen: it starts on the default scenario with a heatmap, edits
// re-evaluate in the background, the charts show the core's numbers, invalid input and
// malformed files leave the view alone, and undo restores value and result.
#include <QtTest>

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QMessageBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <cmath>

#include "best_strategy_dialog.hpp"
#include "comet/evaluate.hpp"
#include "comet/presets.hpp"
#include "common/scenario_document.hpp"
#include "explorer_page.hpp"
#include "forms/parameter_panel.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "main_window.hpp"

#include "common/validation_status.hpp"
#include "ui_fixtures.hpp"

using namespace comet;

namespace {

QString default_path() { return QString::fromStdString((presets_dir() / "scenarios" / "default.comet.json").string()); }

// Waits for the next evaluation to reach the screen.
bool wait_evaluated(app::MainWindow& w, int timeout_ms = 20000) {
    QSignalSpy spy(w.explorer(), &app::ExplorerPage::evaluated);
    return spy.wait(timeout_ms);
}

bool same_time(const TimeBreakdown& a, const TimeBreakdown& b) {
    auto eq = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(1.0, std::fabs(y)); };
    return eq(a.compute_s, b.compute_s) && eq(a.bubble_s, b.bubble_s) && eq(a.tp_comm_s, b.tp_comm_s) && eq(a.pp_comm_s, b.pp_comm_s) &&
           eq(a.dp_comm_s, b.dp_comm_s) && eq(a.memory_s, b.memory_s) && eq(a.optimizer_s, b.optimizer_s) && eq(a.other_s, b.other_s);
}

void set_spin(QWidget* editor, double value) {
    if (auto* d = qobject_cast<QDoubleSpinBox*>(editor))
        d->setValue(value);
    else if (auto* i = qobject_cast<QSpinBox*>(editor))
        i->setValue(int(value));
    else
        QFAIL("not a spin box");
}

}  // namespace

class TestExplorer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void startsWithAMeaningfulHeatmap();
    void currentResultSaysHowFarToTrustIt();
    void spinBoxRecomputesAndChartShowsCoreNumbers();
    void selectedCellChartMatchesCore();
    void invalidEntryKeepsTheView();
    void undoRestoresValueAndResult();
    void malformedScenarioIsRefused();
    void newestRequestWins();
    void importHuggingFaceModelIsUndoable();
    void exportsWriteReadableFiles();
};

void TestExplorer::initTestCase() {
    test::isolate_user_state(QStringLiteral("test_explorer"));  // settings and autosaves in a fresh folder
}

void TestExplorer::startsWithAMeaningfulHeatmap() {
    app::MainWindow w;
    w.resize(1400, 900);
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    const auto& data = w.explorer()->heatmap()->data();
    QVERIFY(data.nx >= 8 && data.ny >= 8);
    int feasible = 0;
    for (const auto& cell : data.cells) feasible += std::isfinite(cell.value) ? 1 : 0;
    QVERIFY2(feasible > data.nx * data.ny / 2, "most cells of the default grid should be feasible");
    QVERIFY(data.current.has_value());
    QVERIFY(data.best.has_value());
    QVERIFY(w.windowTitle().contains(QStringLiteral("Megatron 1T")));
}

// The current answer carries its band (issue 40): the default's DGX A100 validates on its
// 2021 runs; an edited node on an edited software is not validated, and says so.
void TestExplorer::currentResultSaysHowFarToTrustIt() {
    app::MainWindow w;
    w.resize(1400, 900);
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    const ui::Evaluation& e = *w.explorer()->lastEvaluation();
    const TrustBand direct = ui::shipped_trust_band(e.config.node, e.config.software, w.document()->scenario().software_info.name);
    QVERIFY(e.band.validated());
    QCOMPARE(e.band.runs, direct.runs);
    QCOMPARE(e.band.high, direct.high);
    const QString status = w.statusBar()->currentMessage();
    QVERIFY2(status.contains(ui::format_seconds(e.current.iteration_s) + QStringLiteral(" (likely ") + ui::trust_range_text(e.band) +
                             QLatin1Char(')')),
             qPrintable(status));
    QCOMPARE(status.contains(QStringLiteral("\u26A0")), e.band.mfu_above_published(e.current.mfu));
    Config edited = w.document()->config();
    edited.node.hbm_bandwidth_gbps += 1;
    edited.software.host_op_us += 1;
    w.document()->setConfig(edited, QStringLiteral("edit"));
    QVERIFY(wait_evaluated(w));
    QVERIFY(!w.explorer()->lastEvaluation()->band.validated());
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("(not validated)")), qPrintable(w.statusBar()->currentMessage()));
}

void TestExplorer::spinBoxRecomputesAndChartShowsCoreNumbers() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    QWidget* hbm = w.parameters()->editorFor(QStringLiteral("node.hbm_bandwidth_gbps"));
    QVERIFY(hbm);
    set_spin(hbm, 3000);
    QVERIFY(wait_evaluated(w));
    const Config& c = w.document()->config();
    QCOMPARE(c.node.hbm_bandwidth_gbps, 3000.0);
    const auto& e = *w.explorer()->lastEvaluation();
    QCOMPARE(e.config.node.hbm_bandwidth_gbps, 3000.0);
    const Result direct = evaluate(c);
    QCOMPARE(e.current.iteration_s, direct.iteration_s);
    // The first bar of the breakdown chart is the edited configuration, as the core computes it.
    QVERIFY(!w.explorer()->shownBars().empty());
    QVERIFY(same_time(w.explorer()->shownBars().front().time, direct.time));
    // The heatmap's axis includes the new value (the current marker moved with it).
    const auto& data = w.explorer()->heatmap()->data();
    QVERIFY(data.current.has_value());
    QCOMPARE(data.x_values[std::size_t(data.current->ix)], 3000.0);
}

void TestExplorer::selectedCellChartMatchesCore() {
    app::MainWindow w;
    w.resize(1400, 900);
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ui::HeatmapWidget* heatmap = w.explorer()->heatmap();
    const auto geometry = heatmap->layoutFor(heatmap->size());
    const ui::CellIndex target{3, 5};
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, geometry.cell_rect(target).center().toPoint());
    QCOMPARE(w.explorer()->selectedCell(), std::optional<ui::CellIndex>(target));
    const auto& e = *w.explorer()->lastEvaluation();
    const SweepCell& cell = e.grid.at(target.ix, target.iy);
    QVERIFY(cell.result.feasible);
    // Rebuild the cell's configuration independently and evaluate it with the core.
    Config c = e.config;
    set_knob(c, e.spec.x.knob, e.spec.x.values[std::size_t(target.ix)]);
    set_knob(c, e.spec.y->knob, e.spec.y->values[std::size_t(target.iy)]);
    c.strategy = cell.strategy;
    const Result direct = evaluate(c);
    QVERIFY(direct.feasible);
    QCOMPARE(w.explorer()->shownBars().size(), std::size_t{2});
    QVERIFY(same_time(w.explorer()->shownBars()[1].time, direct.time));
    QCOMPARE(w.explorer()->shownTiers().front().footprint.used_bytes(), direct.hbm.used_bytes());
}

void TestExplorer::invalidEntryKeepsTheView() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    const quint64 generation = w.explorer()->lastEvaluation()->generation;
    const Config before = w.document()->config();
    const int undo_count = w.document()->undoStack()->count();
    QWidget* kv = w.parameters()->editorFor(QStringLiteral("model.kv_heads"));
    QVERIFY(kv);
    set_spin(kv, 3);  // does not divide the 160 heads
    QTest::qWait(300);
    QCOMPARE(w.document()->config().model.kv_heads, before.model.kv_heads);
    QCOMPARE(w.document()->undoStack()->count(), undo_count);
    QCOMPARE(w.explorer()->lastEvaluation()->generation, generation);  // the last valid result stays
    QVERIFY(!w.explorer()->heatmap()->data().cells.empty());
    QVERIFY2(kv->toolTip().contains(QStringLiteral("model.kv_heads")), qPrintable(kv->toolTip()));
}

void TestExplorer::undoRestoresValueAndResult() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    const double original = w.explorer()->lastEvaluation()->current.iteration_s;
    QWidget* out = w.parameters()->editorFor(QStringLiteral("node.scale_out.bandwidth_gbps"));
    QVERIFY(out);
    set_spin(out, 6.25);
    QVERIFY(wait_evaluated(w));
    QVERIFY(w.explorer()->lastEvaluation()->current.iteration_s > original);
    QVERIFY(w.document()->isModified());
    w.document()->undoStack()->undo();
    QVERIFY(wait_evaluated(w));
    QCOMPARE(w.document()->config().node.scale_out.bandwidth_gbps, 25.0);
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(out)->value(), 25.0);
    QCOMPARE(w.explorer()->lastEvaluation()->current.iteration_s, original);
    QVERIFY(!w.document()->isModified());
}

void TestExplorer::malformedScenarioIsRefused() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    const std::string before = scenario_to_json(w.document()->scenario());
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.comet.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"comet-scenario\", \"version\": 1, \"model\": {\"layers\": \"many\"}}");
    f.close();
    QVERIFY(!w.openFile(bad));
    QCOMPARE(scenario_to_json(w.document()->scenario()), before);
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("openErrorBox"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("model.layers")), qPrintable(box->text()));
    box->close();
}

void TestExplorer::newestRequestWins() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    QWidget* hbm = w.parameters()->editorFor(QStringLiteral("node.hbm_bandwidth_gbps"));
    // A burst of edits: only the last one's result may reach the screen.
    QSignalSpy spy(w.explorer(), &app::ExplorerPage::evaluated);
    for (double v : {2100.0, 2200.0, 2300.0, 2400.0, 2500.0}) {
        set_spin(hbm, v);
        QCoreApplication::processEvents();
    }
    // The last edit's result arrives (however slow the machine), and at most one earlier one.
    QTRY_COMPARE_WITH_TIMEOUT(w.explorer()->lastEvaluation()->config.node.hbm_bandwidth_gbps, 2500.0, 20000);
    QVERIFY2(spy.count() <= 2, qPrintable(QString::number(spy.count())));
}

void TestExplorer::importHuggingFaceModelIsUndoable() {
    // Opened from a file of its own: the import starts a new untitled document, so that Ctrl+S
    // cannot overwrite that study with the imported model (issue 40).
    QTemporaryDir tmp;
    const QString study = tmp.filePath(QStringLiteral("study.comet.json"));
    QVERIFY(QFile::copy(default_path(), study));
    const QByteArray study_text = [&] {
        QFile f(study);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    app::MainWindow w;
    w.start(study);
    w.show();
    QVERIFY(wait_evaluated(w));
    QCOMPARE(w.document()->filePath(), study);
    const ModelSpec before = w.document()->config().model;
    QVERIFY(w.importHuggingFaceFile(QStringLiteral(COMET_SOURCE_DIR "/tests/data/hf/llama-3-8b.json")));
    QVERIFY(w.document()->filePath().isEmpty());
    QVERIFY(w.document()->isModified());
    QVERIFY2(w.windowTitle().contains(QStringLiteral("not saved")), qPrintable(w.windowTitle()));
    {
        QFile f(study);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), study_text);  // the study is untouched
    }
    QVERIFY(wait_evaluated(w));
    const ModelSpec& m = w.document()->config().model;
    QCOMPARE(m.layers, 32);
    QCOMPARE(m.kv_heads, 8);
    QVERIFY(m.gated_mlp);
    QCOMPARE(w.explorer()->lastEvaluation()->config.model.layers, 32);
    QVERIFY(w.findChild<QDialog*>(QStringLiteral("importBox")));
    // pp 64 does not divide 32 layers: the import searches and applies the best strategy, a second step.
    QVERIFY(w.bestStrategyDialog());
    if (w.bestStrategyDialog()->running())
        QVERIFY(QSignalSpy(w.bestStrategyDialog(), &app::BestStrategyDialog::finished_search).wait(60000));
    w.document()->undoStack()->setIndex(0);
    QCOMPARE(w.document()->config().model.layers, before.layers);
    // A malformed config is refused and changes nothing.
    QVERIFY(!w.importHuggingFaceFile(QStringLiteral(COMET_SOURCE_DIR "/tests/data/hf/bad-heads.json")));
    QCOMPARE(w.document()->config().model.layers, before.layers);
    QVERIFY(w.findChild<QMessageBox*>(QStringLiteral("importErrorBox")));
}

void TestExplorer::exportsWriteReadableFiles() {
    app::MainWindow w;
    w.start(default_path());
    w.show();
    QVERIFY(wait_evaluated(w));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("heatmap.png"));
    QCOMPARE(w.explorer()->exportHeatmap(png), QString());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(3200, 2000));
    const QString svg = dir.filePath(QStringLiteral("breakdown.svg"));
    QCOMPARE(w.explorer()->exportBreakdown(svg), QString());
    QFile svg_file(svg);
    QVERIFY(svg_file.open(QIODevice::ReadOnly));
    QVERIFY(svg_file.readAll().contains("Iteration time"));
    const QString csv = dir.filePath(QStringLiteral("grid.csv"));
    QCOMPARE(w.explorer()->exportGrid(csv), QString());
    QFile csv_file(csv);
    QVERIFY(csv_file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv_file.readAll().trimmed().split('\n');
    const auto& e = *w.explorer()->lastEvaluation();
    QCOMPARE(lines.size(), qsizetype(e.grid.cells.size()) + 1);  // header + one row per cell
    QVERIFY(lines.front().startsWith("x_knob,y_knob,x,y,feasible"));
    QVERIFY(!w.explorer()->exportGrid(dir.filePath(QStringLiteral("grid.xls"))).isEmpty());
    QVERIFY(!w.explorer()->exportHeatmap(QStringLiteral("/nonexistent-dir/x.png")).isEmpty());
}

QTEST_MAIN(TestExplorer)
#include "test_explorer.moc"
