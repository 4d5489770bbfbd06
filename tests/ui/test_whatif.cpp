// Issue 15, "the explorer answers a what-if in one step": unique shortcuts, presets that bring
// their training settings and price, Find Best Strategy, imports that end on a strategy that
// runs, infeasibility explained with numbers, and the Help menu.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QDialog>
#include <QLineEdit>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolTip>
#include <map>

#include "axis_range_dialog.hpp"
#include "best_strategy_dialog.hpp"
#include "charts/chart_model.hpp"
#include "compare_page.hpp"
#include "comet/evaluate.hpp"
#include "comet/infeasibility.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "comet/search.hpp"
#include "common/scenario_document.hpp"
#include "explorer_page.hpp"
#include "forms/parameter_panel.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "help_menu.hpp"
#include "import_summary_dialog.hpp"
#include "main_window.hpp"

#include "ui_fixtures.hpp"

using namespace comet;

namespace {

QString scenario_path(const char* name) { return QString::fromStdString((presets_dir() / "scenarios" / name).string()); }

int item_named(QComboBox* box, const QString& name) {
    const int i = box->findText(name);
    if (i < 0) qFatal("no preset item %s", qPrintable(name));
    return i;
}

bool wait_best(app::MainWindow& w) {
    app::BestStrategyDialog* d = w.bestStrategyDialog();
    if (!d) return false;
    if (!d->running() && d->result()) return true;
    QSignalSpy spy(d, &app::BestStrategyDialog::finished_search);
    return spy.wait(120000);
}

struct Window {
    app::MainWindow w;
    Window() {
        w.resize(1440, 900);
        w.start(scenario_path("default.comet.json"), false);
        w.show();
        if (!QTest::qWaitForWindowActive(&w)) qWarning("window not active");
    }
};

}  // namespace

class TestWhatIf : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate_user_state(QStringLiteral("test_whatif")); }

    void everyShortcutTriggersExactlyOneAction() {
        Window win;
        std::map<QString, QStringList> owners;
        for (QAction* a : win.w.findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts()) owners[k.toString()] << a->text();
        for (const auto& [key, actions] : owners)
            QVERIFY2(actions.size() == 1, qPrintable(key + QStringLiteral(": ") + actions.join(QStringLiteral(", "))));
        auto* present = win.w.findChild<QAction*>(QStringLiteral("presentationAction"));
        auto* reevaluate = win.w.findChild<QAction*>(QStringLiteral("reevaluateAction"));
        auto* best = win.w.findChild<QAction*>(QStringLiteral("bestStrategyAction"));
        QVERIFY(present && reevaluate && best);
        QSignalSpy presented(present, &QAction::triggered);
        QSignalSpy reevaluated(reevaluate, &QAction::triggered);
        const qreal table_font = win.w.compare()->table()->font().pointSizeF();
        QTest::keyClick(&win.w, Qt::Key_F5);
        QCOMPARE(presented.count(), 1);
        QVERIFY2(win.w.compare()->table()->font().pointSizeF() > 1.3 * table_font,
                 qPrintable(QStringLiteral("%1 -> %2").arg(table_font).arg(win.w.compare()->table()->font().pointSizeF())));
        QCOMPARE(reevaluated.count(), 0);
        QVERIFY(win.w.presentationMode());
        QTest::keyClick(&win.w, Qt::Key_F5);
        QVERIFY(!win.w.presentationMode());
        QTest::keyClick(&win.w, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(reevaluated.count(), 1);
        QCOMPARE(presented.count(), 2);
        QCOMPARE(best->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_B));
        auto* toolbar = win.w.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
        QVERIFY(toolbar && toolbar->isVisible() && toolbar->actions().contains(best));
    }

    void modelPresetBringsItsTrainingSettingsUndoably() {
        Window win;
        const TrainingSpec before = win.w.document()->config().training;
        QCOMPARE(before.precision, Precision::fp16);  // Megatron 1T's
        QComboBox* models = win.w.parameters()->modelPresetPicker();
        models->setCurrentIndex(item_named(models, QStringLiteral("Llama 3 70B")));
        const Config& c = win.w.document()->config();
        QCOMPARE(c.model.layers, 80);
        QCOMPARE(c.model.seq_len, 8192);
        QCOMPARE(c.training.precision, Precision::bf16);
        QCOMPARE(c.training.attention, AttentionKernel::fused);
        QCOMPARE(c.training.dropout, false);
        QCOMPARE(c.training.global_batch, 512LL);  // 4M tokens at 8192
        const QString note = win.w.parameters()->presetNote(false);
        QVERIFY2(note.contains(QStringLiteral("precision fp16 \u2192 bf16")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("global batch 3072 \u2192 512")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("dropout on \u2192 off")));
        QCOMPARE(win.w.document()->scenario().cost.tokens_to_train, 15e12);  // the model cards' 15T+, not Megatron 1T's 450 B
        QVERIFY2(note.contains(QStringLiteral("token budget 450 B tokens \u2192 15 T tokens")), qPrintable(note));
        auto* label = win.w.parameters()->findChild<QLabel*>(QStringLiteral("modelPresetNote"));
        QVERIFY(label && label->isVisible());
        win.w.document()->undoStack()->undo();  // one step back: model and training
        QCOMPARE(win.w.document()->config().training, before);
        QCOMPARE(win.w.document()->scenario().cost.tokens_to_train, 450e9);
        QCOMPARE(win.w.document()->config().model.layers, 128);
        QVERIFY(win.w.parameters()->presetNote(false).isEmpty());
        // Mixtral publishes neither batch nor training tokens: the note says the scenario's stay.
        models->setCurrentIndex(item_named(models, QStringLiteral("Mixtral 8x7B")));
        const QString kept = win.w.parameters()->presetNote(false);
        QVERIFY2(kept.contains(QStringLiteral("Its batch is not published: the scenario's 3072 sequences stay; its training tokens are not "
                                              "published: the scenario's budget of 450 B tokens stays.")),
                 qPrintable(kept));
        QCOMPARE(win.w.document()->scenario().cost.tokens_to_train, 450e9);
    }

    // Issue 40 item 2: the scenario's name follows its content until the user names it. The bundled
    // default's name ("... (Selene)") becomes the new content's after a model, a node count and a
    // node are chosen in the forms (each one undo step with its rename), the window title and the
    // saved file say so; a name given in File > Name and Description stays, and so does the name
    // of a file the user saved under it.
    void theNameFollowsTheContentUntilTheUserNamesIt() {
        Window win;
        ui::ScenarioDocument* doc = win.w.document();
        const std::string selene = doc->scenario().name;
        QCOMPARE(selene, std::string("Megatron 1T on 384 DGX A100 (Selene)"));
        QVERIFY(doc->nameFollowsContent());  // a shipped example's name is not the user's
        QComboBox* models = win.w.parameters()->modelPresetPicker();
        models->setCurrentIndex(item_named(models, QStringLiteral("Llama 3 70B")));
        QCOMPARE(doc->scenario().name, std::string("Llama 3 70B on 384 \u00d7 DGX A100 80GB"));
        QVERIFY2(QString::fromStdString(doc->scenario().description)
                     .startsWith(QStringLiteral("Started from \u201cMegatron 1T on 384 DGX A100 (Selene)\u201d: ")),
                 doc->scenario().description.c_str());
        auto* nodes = qobject_cast<QSpinBox*>(win.w.parameters()->editorFor(QStringLiteral("cluster.nodes")));
        QVERIFY(nodes);
        nodes->setFocus();
        nodes->selectAll();
        QTest::keyClicks(nodes, QStringLiteral("64"));
        QTest::keyClick(nodes, Qt::Key_Return);
        QCOMPARE(doc->config().cluster.nodes, 64);
        QCOMPARE(doc->scenario().name, std::string("Llama 3 70B on 64 \u00d7 DGX A100 80GB"));
        QComboBox* node_presets = win.w.parameters()->nodePresetPicker();
        node_presets->setCurrentIndex(item_named(node_presets, QStringLiteral("DGX H100")));
        QCOMPARE(doc->scenario().name, std::string("Llama 3 70B on 64 \u00d7 DGX H100"));
        QVERIFY2(win.w.windowTitle().startsWith(QStringLiteral("Llama 3 70B on 64 \u00d7 DGX H100 (")), qPrintable(win.w.windowTitle()));
        doc->undoStack()->undo();  // the node, and its rename
        QCOMPARE(doc->scenario().name, std::string("Llama 3 70B on 64 \u00d7 DGX A100 80GB"));
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(doc->scenario().name, selene);
        QCOMPARE(doc->scenario().description.rfind("Started from", 0), std::string::npos);
        for (int i = 0; i < 3; ++i) doc->undoStack()->redo();
        QCOMPARE(doc->scenario().name, std::string("Llama 3 70B on 64 \u00d7 DGX H100"));

        // The user names it: the name stays whatever the node becomes; undo gives the following name back.
        QDialog* dialog = win.w.nameDialog();
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("scenarioName"));
        QVERIFY(name);
        name->setText(QStringLiteral("Q3 sizing study"));
        if (const QByteArray shots = qgetenv("COMET_SHOT_DIR"); !shots.isEmpty())  // for looking at
            dialog->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/name-dialog.png"));
        dialog->accept();
        QCOMPARE(doc->scenario().name, std::string("Q3 sizing study"));
        QVERIFY(!doc->nameFollowsContent());
        node_presets->setCurrentIndex(item_named(node_presets, QStringLiteral("DGX B200")));
        QCOMPARE(doc->scenario().name, std::string("Q3 sizing study"));
        QVERIFY(win.w.windowTitle().startsWith(QStringLiteral("Q3 sizing study (")));

        // Saved and opened again, the user's name is the file's own: it stays.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("q3.comet.json"));
        QCOMPARE(doc->save(path), QString());
        QVERIFY(win.w.openFile(path));
        QVERIFY(!doc->nameFollowsContent());
        models->setCurrentIndex(item_named(models, QStringLiteral("Llama 3 8B")));
        QCOMPARE(doc->config().model.layers, 32);
        QCOMPARE(doc->scenario().name, std::string("Q3 sizing study"));
        doc->undoStack()->undo();
        doc->undoStack()->undo();  // nothing before the open: the name is the file's
        QCOMPARE(doc->scenario().name, std::string("Q3 sizing study"));
    }

    void nodePresetBringsItsPriceOrSaysItHasNone() {
        Window win;
        QComboBox* nodes = win.w.parameters()->nodePresetPicker();
        // The default's comparison already prices DGX H100 at $3.00 (two designs): one node, one
        // price, so the scenario takes that price rather than the preset's $2.99, and says whose.
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("DGX H100")));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 3.0);
        for (const Design& d : win.w.document()->scenario().designs)
            if (d.node == win.w.document()->config().node) QCOMPARE(d.price_per_gpu_hour_usd, 0.0);  // it pays the scenario's
        QCOMPARE(win.w.document()->config().node.power_kw, 10.2);
        QString note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("price $1.80 \u2192 $3.00 per GPU-hour (the price design \"H100 x384, best strategy\" has")),
                 qPrintable(note));
        win.w.document()->undoStack()->undo();
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 1.8);
        QCOMPARE(win.w.document()->scenario().designs[2].price_per_gpu_hour_usd, 3.0);
        // A node no design prices brings the preset's price, with its source.
        Scenario bare = win.w.document()->scenario();
        bare.designs.clear();
        win.w.document()->setScenario(bare, QStringLiteral("no designs"));
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("DGX H100")));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 2.99);
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("price $1.80 \u2192 $2.99 per GPU-hour")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("Lambda")));
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("HGX H200")));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 3.5);
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("price $2.99 \u2192 $3.50 per GPU-hour")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("Nebius")));
        // H800's price is the rental price DeepSeek's V3 report assumed, named as such.
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("HGX H800 (8x H800 SXM, export-limited NVLink)")));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 2.0);
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("price $3.50 \u2192 $2.00 per GPU-hour")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("DeepSeek-V3 technical report")));
        const QString no_price = QStringLiteral("AWS Trn2 UltraServer (one 16-chip trn2u.48xlarge of a 64-chip NeuronLink domain)");
        nodes->setCurrentIndex(item_named(nodes, no_price));
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("No published price: the scenario's GPU price ($2.00 per GPU-hour) stays")),
                 qPrintable(note));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 2.0);
        // Gaudi 3 has only a list purchase price: it replaces the hourly price, which would win over it.
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("Intel Gaudi 3 (HLS-Gaudi3, 8x HL-325L OAM)")));
        QCOMPARE(win.w.document()->scenario().cost.price_per_gpu_hour_usd, 0.0);
        QCOMPARE(win.w.document()->scenario().cost.purchase_price_per_gpu_usd, 15625.0);
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("purchase price none \u2192 $15,625 per GPU")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("price $2.00 \u2192 none (the preset gives a purchase price)")), qPrintable(note));
        // A node without a price after it says which price stays: the purchase price, amortised.
        nodes->setCurrentIndex(item_named(nodes, no_price));
        note = win.w.parameters()->presetNote(true);
        QVERIFY2(note.contains(QStringLiteral("the scenario's GPU price ($15,625 per GPU, amortised over 4 years")), qPrintable(note));
    }

    // The issue's task: Llama 3 70B on 8 DGX H100 from presets to a best strategy in four actions.
    void llamaOnEightDgxH100InFourActions() {
        Window win;
        QComboBox* nodes = win.w.parameters()->nodePresetPicker();
        nodes->setCurrentIndex(item_named(nodes, QStringLiteral("DGX H100")));                                 // 1
        qobject_cast<QSpinBox*>(win.w.parameters()->editorFor(QStringLiteral("cluster.nodes")))->setValue(8);  // 2
        QComboBox* models = win.w.parameters()->modelPresetPicker();
        models->setCurrentIndex(item_named(models, QStringLiteral("Llama 3 70B")));  // 3
        QTest::keyClick(&win.w, Qt::Key_B, Qt::ControlModifier);                     // 4
        QVERIFY(wait_best(win.w));
        // The same answer as the core's search of the shipped Llama 3 70B scenario.
        const Loaded<Scenario> shipped = load_scenario_file(scenario_path("llama3-70b-64xh100.comet.json").toStdString());
        QVERIFY(shipped.ok());
        Config expected = shipped.value->config;
        expected.strategy = win.w.document()->config().strategy;
        QCOMPARE(win.w.document()->config(), expected);
        const SearchResult sr = search(shipped.value->config, SearchOptions{});
        QVERIFY(sr.found());
        QCOMPARE(win.w.document()->config().strategy, sr.top.front().strategy);
        const Result r = evaluate(win.w.document()->config());
        QVERIFY(r.feasible);
        QVERIFY2(r.iteration_s > 35 && r.iteration_s < 75, qPrintable(QString::number(r.iteration_s)));
        // The table: ten strategies, fastest first, each saying why it beats the next.
        QTableWidget* t = win.w.bestStrategyDialog()->table();
        QCOMPARE(t->rowCount(), app::BestStrategyDialog::shown);
        QCOMPARE(t->item(0, 1)->text(), QString::fromStdString(format_strategy(sr.top.front().strategy)));
        QVERIFY2(t->item(0, 5)->text().contains(QStringLiteral("faster")) || t->item(0, 5)->text().contains(QStringLiteral("ties")),
                 qPrintable(t->item(0, 5)->text()));
        QVERIFY(win.w.bestStrategyDialog()->summary().contains(QStringLiteral("Applied #1")));
        if (const QByteArray dir = qgetenv("COMET_SHOT_DIR"); !dir.isEmpty()) {  // for looking at it
            win.w.bestStrategyDialog()->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/best-strategy.png"));
            win.w.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/after-four-actions.png"));
        }
        // Another row with a click, undoable back to #1.
        win.w.bestStrategyDialog()->applyRow(2);
        QCOMPARE(win.w.document()->config().strategy, win.w.bestStrategyDialog()->result()->top[2].strategy);
        win.w.document()->undoStack()->undo();
        QCOMPARE(win.w.document()->config().strategy, sr.top.front().strategy);
    }

    void huggingFaceImportEndsOnAStrategyThatRuns() {
        Window win;
        QVERIFY(win.w.importHuggingFaceFile(QStringLiteral(COMET_SOURCE_DIR "/tests/data/hf/llama-3-8b.json")));
        auto* box = win.w.findChild<app::ImportSummaryDialog*>(QStringLiteral("importBox"));
        QVERIFY(box);
        QVERIFY2(box->verdict().contains(QStringLiteral("cannot run")), qPrintable(box->verdict()));  // pp 64 for 32 layers
        QVERIFY(wait_best(win.w));
        QCOMPARE(win.w.document()->config().model.layers, 32);
        QVERIFY(evaluate(win.w.document()->config()).feasible);
        box->close();
    }

    void calculonImportEndsOnAStrategyThatRuns() {
        Window win;
        const QString d = QStringLiteral(COMET_SOURCE_DIR "/tests/data/calculon/");
        QVERIFY(win.w.importCalculonFiles(d + QStringLiteral("gpt3-175B.json"), d + QStringLiteral("h100_80g_nvl8.json"),
                                          d + QStringLiteral("3072_t4_p64_d12_mbs4_full.json")));
        auto* box = win.w.findChild<app::ImportSummaryDialog*>(QStringLiteral("importBox"));
        QVERIFY(box);
        QVERIFY(box->details().contains(QStringLiteral("Mapped:")));
        QCOMPARE(win.w.document()->config().model.layers, 96);
        if (box->verdict().contains(QStringLiteral("cannot run"))) {
            QVERIFY(wait_best(win.w));
        } else {
            QVERIFY2(box->verdict().contains(QStringLiteral(" runs: ")), qPrintable(box->verdict()));
            QVERIFY(!win.w.bestStrategyDialog());  // offered (a button), not forced
        }
        QVERIFY(evaluate(win.w.document()->config()).feasible);
        box->close();
    }

    void infeasibleConfigurationNamesItsLimitAndTheNearestFix() {
        const Loaded<Scenario> s = load_scenario_file(scenario_path("llama3-70b-64xh100.comet.json").toStdString());
        QVERIFY(s.ok());
        Config c = s.value->config;
        c.strategy.tp = 8;
        c.strategy.pp = 1;
        c.strategy.dp = 8;
        c.strategy.recompute = Recompute::none;
        c.strategy.zero_stage = 0;
        const Result r = evaluate(c);
        QCOMPARE(r.reason, Infeasible::hbm_capacity);
        const InfeasibilityExplanation e = explain_infeasible(c, r);
        QVERIFY2(
            e.limit.find("GiB per GPU, has 74.0 GiB usable (80 GiB less 2 GiB reserved and a 5 % allocator margin)") != std::string::npos,
            e.limit.c_str());
        QVERIFY2(!e.nearest.empty(), e.text().c_str());
        Config fixed = c;
        fixed.strategy = e.nearest_strategy;
        QVERIFY(evaluate(fixed).feasible);
    }

    void breakdownSaysWhyInsteadOfNoData() {
        Window win;
        QTRY_VERIFY_WITH_TIMEOUT(win.w.explorer()->lastEvaluation().has_value(), 20000);
        Config c = win.w.document()->config();
        c.strategy.microbatch = 5;  // dp 6 x 5 does not divide the batch of 3072
        QCOMPARE(evaluate(c).reason, Infeasible::batch_split);
        QSignalSpy spy(win.w.explorer(), &app::ExplorerPage::evaluated);
        win.w.document()->setConfig(c, QStringLiteral("test"));
        QVERIFY(spy.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(win.w.explorer()->lastEvaluation()->config == c, 20000);
        QVERIFY(win.w.explorer()->shownBars().empty());
        const QString m = win.w.explorer()->breakdownMessage();
        QVERIFY2(m.contains(QStringLiteral("dp x microbatch = 30, global batch = 3072")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("Nearest change that runs: microbatch 5 \u2192 1 runs")), qPrintable(m));
    }

    void pinnedCellsHaveNumberedMarkers() {
        Window win;
        QTRY_VERIFY_WITH_TIMEOUT(win.w.explorer()->lastEvaluation().has_value(), 20000);
        ui::HeatmapWidget* h = win.w.explorer()->heatmap();
        const QImage before = h->render_image(QSize(900, 500));
        Q_EMIT h->cellPinned(ui::CellIndex{2, 3});
        QCOMPARE(h->pinnedCells(), (std::vector<ui::CellIndex>{{2, 3}}));
        const QImage after = h->render_image(QSize(900, 500));
        const QPoint centre = h->layoutFor(QSizeF(900, 500)).cell_rect(ui::CellIndex{2, 3}).center().toPoint();
        QVERIFY(before.pixelColor(centre) != after.pixelColor(centre));  // the tag covers the cell's colour
        QVERIFY(win.w.explorer()->shownBars().back().label.startsWith(QStringLiteral("Pin 1: ")));
        Q_EMIT h->cellPinned(ui::CellIndex{2, 3});  // again: unpinned
        QVERIFY(h->pinnedCells().empty());
    }

    // View > Heatmap Axis Ranges (issue 40 item 8): the dialog starts from the automatic axis,
    // refuses a range it cannot use with the reason and OK off, and a good range is the grid's
    // axis at once; another knob on the axis starts around its current value again.
    void axisRangesComeFromTheDialog() {
        Window win;
        app::ExplorerPage* page = win.w.explorer();
        QTRY_VERIFY_WITH_TIMEOUT(page->lastEvaluation().has_value(), 20000);
        const std::vector<double> automatic = page->lastEvaluation()->spec.x.values;  // HBM bandwidth
        QAction* action = win.w.findChild<QAction*>(QStringLiteral("axisRangesAction"));
        QVERIFY(action);
        action->trigger();
        auto* dialog = page->findChild<app::AxisRangeDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->automatic(0)->isChecked());
        QCOMPARE(dialog->from(0)->value(), automatic.front());
        QCOMPARE(dialog->to(0)->value(), automatic.back());
        QPushButton* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        dialog->automatic(0)->setChecked(false);
        dialog->from(0)->setValue(6000);
        dialog->to(0)->setValue(2000);
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog->problem().contains(QStringLiteral("HBM bandwidth (hbm_gbps) [6000, 2000]: 'from' must be below 'to'")),
                 qPrintable(dialog->problem()));
        dialog->to(0)->setValue(12000);
        QVERIFY(ok->isEnabled());
        ok->click();
        QTRY_VERIFY_WITH_TIMEOUT(page->lastEvaluation() && page->lastEvaluation()->spec.x.values.front() == 6000.0, 30000);
        const std::vector<double>& x = page->lastEvaluation()->spec.x.values;
        QCOMPARE(x.back(), 12000.0);
        QCOMPARE(x.size(), automatic.size());  // the steps
        QVERIFY(page->view().x_range.has_value());
        QCOMPARE(win.w.document()->view()->x_range, (std::optional<std::array<double, 2>>{{6000.0, 12000.0}}));
        // Another knob on the axis starts around its current value again.
        const QList<QComboBox*> boxes = page->findChildren<QComboBox*>();
        auto* x_box = boxes.front();
        x_box->setCurrentIndex(x_box->findData(static_cast<int>(Knob::hbm_gib)));
        QTRY_VERIFY_WITH_TIMEOUT(page->lastEvaluation() && page->lastEvaluation()->spec.x.knob == Knob::hbm_gib, 30000);
        QVERIFY(!page->view().x_range.has_value());
    }

    void hatchedCellTooltipNamesTheBindingLimitWithItsNumbers() {
        Window win;
        QTRY_VERIFY_WITH_TIMEOUT(win.w.explorer()->lastEvaluation().has_value(), 20000);
        // Megatron 1T on 16 nodes, HBM capacity from a quarter of 80 GiB up, best strategy per
        // cell: the small ones fit nothing.
        app::ExplorerPage* page = win.w.explorer();
        Config c = win.w.document()->config();
        c.cluster.nodes = 16;
        c.strategy.dp = 2;
        win.w.document()->setConfig(c, QStringLiteral("16 nodes"));
        app::ExplorerPage::View view;
        view.x = Knob::hbm_gib;
        view.y = Knob::scale_out_gbps;
        view.steps = 9;
        page->setView(view);
        page->schedule();
        QTRY_VERIFY_WITH_TIMEOUT(page->lastEvaluation() && page->lastEvaluation()->spec.x.knob == Knob::hbm_gib &&
                                     page->lastEvaluation()->config.cluster.nodes == 16,
                                 30000);
        QTRY_VERIFY_WITH_TIMEOUT(page->heatmap()->data().nx == 9, 30000);
        ui::HeatmapWidget* h = page->heatmap();
        const ui::HeatmapData& d = h->data();
        std::optional<ui::CellIndex> hatched;
        for (int ix = 0; ix < d.nx && !hatched; ++ix)
            if (!d.at(ix, 0).feasible) hatched = ui::CellIndex{ix, 0};
        QVERIFY2(hatched, "no infeasible cell at 20 GiB of HBM");
        QVERIFY(d.at(d.nx - 1, 0).feasible);  // 320 GiB fits
        const SweepCell& cell = page->lastEvaluation()->grid.at(hatched->ix, hatched->iy);
        QCOMPARE(cell.result.reason, Infeasible::no_feasible_strategy);
        const QString tip = h->tooltipText(*hatched);
        // Memory, with both numbers, not the most common rejection of the search.
        QVERIFY2(tip.contains(QStringLiteral("Infeasible: no strategy fits in HBM")), qPrintable(tip));
        static const QRegularExpression needs_has(QStringLiteral("needs [0-9.]+ GiB per GPU, has [0-9.]+ GiB usable"));
        QVERIFY2(tip.contains(needs_has), qPrintable(tip));
        QVERIFY2(!tip.contains(QString::fromStdString(explain(cell.result))), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("HBM capacity: ")));  // the cell's axis values stay
        // Hovering shows the same text.
        h->resize(900, 500);
        const QPoint at = h->layoutFor(QSizeF(h->size())).cell_rect(*hatched).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, at, h->mapToGlobal(at));
        QCoreApplication::sendEvent(h, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), tip);
        QToolTip::hideText();
        // A feasible cell keeps its breakdown.
        for (int ix = d.nx - 1; ix >= 0; --ix)
            if (d.at(ix, 0).feasible) {
                QVERIFY(h->tooltipText({ix, 0}).contains(QStringLiteral("Iteration time: ")));
                break;
            }
    }

    void comparePricesSayWhereTheyComeFrom() {
        Window win;
        Scenario none = win.w.document()->scenario();
        none.designs.clear();
        none.baseline_design = 0;
        win.w.document()->setScenario(none, QStringLiteral("no designs"));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("dgx-h100"), 8));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("tpu-v7"), 8));  // a node with no published price
        const auto& designs = win.w.document()->scenario().designs;
        QCOMPARE(designs.at(designs.size() - 2).price_per_gpu_hour_usd, 2.99);  // the preset's
        QCOMPARE(designs.back().price_per_gpu_hour_usd, 0.0);                   // none published
        QTableWidget* t = win.w.compare()->table();
        const int h100 = t->rowCount() - 2, tpu = t->rowCount() - 1;
        int price_col = -1;
        for (int col = 0; col < t->columnCount(); ++col)
            if (t->horizontalHeaderItem(col)->text() == QStringLiteral("$/GPU-h")) price_col = col;
        QVERIFY(price_col >= 0);
        QCOMPARE(t->item(h100, price_col)->text(), QStringLiteral("$2.99"));
        QVERIFY(t->item(h100, price_col)->toolTip().contains(QStringLiteral("DGX H100 preset")));
        QCOMPARE(t->item(tpu, price_col)->text(), QStringLiteral("$1.80 scenario"));
        // Editing the shown text back leaves the design on the scenario's price; a number sets its own.
        t->item(tpu, price_col)->setText(QStringLiteral("$3.50"));
        QCOMPARE(win.w.document()->scenario().designs.back().price_per_gpu_hour_usd, 3.5);
        // A preset with a purchase price gives the design that price, shown as such; typing a
        // purchase price sets it, typing an hourly one replaces it.
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("gaudi3"), 8));
        const int gaudi = t->rowCount() - 1;
        QCOMPARE(win.w.document()->scenario().designs.back().purchase_price_per_gpu_usd, 15625.0);
        QCOMPARE(win.w.document()->scenario().designs.back().price_per_gpu_hour_usd, 0.0);
        QCOMPARE(t->item(gaudi, price_col)->text(), QStringLiteral("$15,625 purchase"));
        QVERIFY2(t->item(gaudi, price_col)->toolTip().contains(QStringLiteral("amortised over the scenario's 4 years")),
                 qPrintable(t->item(gaudi, price_col)->toolTip()));
        QVERIFY(t->item(gaudi, price_col)->toolTip().contains(QStringLiteral("Gaudi 3")));
        // Its cost is amortised from that price, whatever hourly price the scenario has.
        const CostInputs in = design_cost(win.w.document()->scenario().cost, win.w.document()->scenario().designs.back());
        QCOMPARE(in.price_per_gpu_hour_usd, 0.0);
        QCOMPARE(in.purchase_price_per_gpu_usd, 15625.0);
        t->item(gaudi, price_col)->setText(QStringLiteral("20,000 purchase"));
        QCOMPARE(win.w.document()->scenario().designs.back().purchase_price_per_gpu_usd, 20000.0);
        QCOMPARE(t->item(gaudi, price_col)->text(), QStringLiteral("$20,000 purchase"));
        t->item(gaudi, price_col)->setText(QStringLiteral("$2.10"));
        QCOMPARE(win.w.document()->scenario().designs.back().price_per_gpu_hour_usd, 2.1);
        QCOMPARE(win.w.document()->scenario().designs.back().purchase_price_per_gpu_usd, 0.0);
        t->item(gaudi, price_col)->setText(QStringLiteral("lots purchase"));  // refused, the price stays
        QCOMPARE(win.w.document()->scenario().designs.back().price_per_gpu_hour_usd, 2.1);
        // The page says when bought and rented designs share the table (their costs differ in
        // kind), and only then.
        win.w.document()->setScenario(none, QStringLiteral("no designs"));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("dgx-h100"), 48));
        QVERIFY(win.w.compare()->addPreset(QStringLiteral("gaudi3"), 48));
        win.w.pages()->setCurrentWidget(win.w.compare());
        win.w.compare()->waitForResults();
        QVERIFY2(win.w.compare()->hintText().contains(QStringLiteral("Costs of #2: a purchase price amortised over 4 years")),
                 qPrintable(win.w.compare()->hintText()));
        QVERIFY(win.w.compare()->hintText().contains(QStringLiteral("Not like for like")));
        t->item(1, price_col)->setText(QStringLiteral("$2.10"));  // both rent now
        win.w.compare()->waitForResults();
        QVERIFY2(!win.w.compare()->hintText().contains(QStringLiteral("purchase")), qPrintable(win.w.compare()->hintText()));
    }

    void nothingFitsNamesMemoryWithItsNumbers() {
        Config c = load_scenario_file(scenario_path("llama3-70b-64xh100.comet.json").toStdString()).value->config;
        c.model = find_model_preset("llama3-405b")->model;
        c.cluster.nodes = 1;  // 405 B parameters on 8 GPUs
        const std::string why = explain_no_fit(c);
        QVERIFY2(why.rfind("no strategy fits in HBM: the leanest, tp8 ", 0) == 0, why.c_str());
        QVERIFY2(why.find("GiB per GPU, has 74.0 GiB usable") != std::string::npos, why.c_str());
        c.cluster.nodes = 8;  // fits with some strategy: not a memory verdict
        c.model = find_model_preset("llama3-70b")->model;
        QCOMPARE(explain_no_fit(c), std::string());
    }

    void nothingFitsForADlrmNamesTheRule() {
        // The DLRM study at 3 nodes: 24 accelerators do not split a batch of 65,536.
        Config c = load_scenario_file(scenario_path("dlrm-2tb-memory-expansion.comet.json").toStdString()).value->config;
        QCOMPARE(explain_no_fit(c), std::string());  // 16 accelerators: it runs
        c.cluster.nodes = 3;
        const std::string why = explain_no_fit(c);
        QVERIFY2(why.rfind("no strategy fits: on all 24 accelerators (", 0) == 0, why.c_str());
        QVERIFY2(why.find("global batch = 65536") != std::string::npos, why.c_str());
        QVERIFY2(why.find("structural rules") == std::string::npos, why.c_str());
    }

    void paretoWithoutPricesSaysSoInsteadOfAFlatAxis() {
        ParetoPoint a;
        a.label = "a";
        a.feasible = true;
        a.time_to_train_s = 86400.0 * 3;
        a.cost_usd = 0;
        a.on_front = true;
        ParetoPoint b = a;
        b.label = "b";
        b.time_to_train_s = 86400.0 * 5;
        const ui::ParetoModel m = ui::build_pareto_model({a, b});
        QVERIFY(m.points.empty());
        QVERIFY2(m.message.contains(QStringLiteral("costs $0")), qPrintable(m.message));
        QVERIFY(m.cost_axis.max > 0);
    }

    void helpMenuHasQuickStartExamplesAndShortcuts() {
        Window win;
        auto* examples = win.w.findChild<QMenu*>(QStringLiteral("examplesMenu"));
        QVERIFY(examples);
        QStringList names;
        for (QAction* a : examples->actions()) names << a->text();
        QVERIFY2(names.contains(QStringLiteral("llama3-70b-64xh100")), qPrintable(names.join(u',')));
        for (QAction* a : examples->actions())
            if (a->text() == QStringLiteral("llama3-70b-64xh100")) a->trigger();
        QCOMPARE(win.w.document()->config().model.layers, 80);
        const QStringList lines = app::shortcut_lines(&win.w);
        QVERIFY2(lines.contains(QStringLiteral("Find Best Strategy\tCtrl+B")), qPrintable(lines.join(u'\n')));
        QVERIFY(lines.contains(QStringLiteral("Presentation Mode\tF5, F11")));
        QVERIFY(lines.contains(QStringLiteral("Re-evaluate\tCtrl+R")));
        QVERIFY(app::quick_start_html().contains(QStringLiteral("Find Best Strategy")));
        // Menu entries keep an escaped ampersand and lose only the mnemonic mark.
        QVERIFY2(lines.contains(QStringLiteral("Cost & Sensitivity\tAlt+3")), qPrintable(lines.join(u'\n')));
    }
};

QTEST_MAIN(TestWhatIf)
#include "test_whatif.moc"
