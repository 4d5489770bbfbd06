// Nothing is lost: the edited scenario is autosaved after edits pause, the autosave disappears
// when the scenario is saved or the window closes normally, and what a crashed process left
// behind is offered at the next start and restored as unsaved changes on top of its file.
#include <cmath>
#include <QtTest>

#include <QCheckBox>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <sys/wait.h>
#include <unistd.h>

#include "comet/presets.hpp"
#include "common/autosave.hpp"
#include "common/scenario_document.hpp"
#include "analysis_page.hpp"
#include "explorer_page.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "main_window.hpp"
#include "ui_fixtures.hpp"

using namespace comet;

namespace {

Scenario default_scenario() {
    const Loaded<Scenario> s = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
    if (!s.ok()) qFatal("%s", s.error_text().c_str());
    return *s.value;
}

// A pid that no process has: above the kernel's pid_max.
constexpr qint64 dead_pid = 99'999'999;

// What a crashed process leaves: the scenario and its sidecar naming the original file.
void leave_orphan(const QString& dir, const Scenario& s, const QString& original, qint64 pid = dead_pid) {
    const QString base = QDir(dir).filePath(QStringLiteral("autosave-%1").arg(pid));
    const QString file = base + QStringLiteral(".comet.json");
    QCOMPARE(QString::fromStdString(save_scenario_file(file.toStdString(), s)), QString());
    const QByteArray meta = QStringLiteral(R"({"pid": %1, "file": "%2", "saved": "2026-11-30T03:00:00Z"})").arg(pid).arg(original).toUtf8();
    test::write_file(base + QStringLiteral(".meta.json"), meta);
}

}  // namespace

class TestAutosave : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("COMET_AUTOSAVE_DIR", dir_.path().toLocal8Bit());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("comet-explorer-test"));
        QCoreApplication::setApplicationName(QStringLiteral("test_autosave"));
    }

    void editsAreAutosavedAndSavingRemovesIt() {
        ui::ScenarioDocument doc;
        doc.reset(default_scenario());
        ui::Autosaver saver(&doc, 50);
        QVERIFY(!QFile::exists(saver.path()));
        Config c = doc.config();
        c.node.hbm_bandwidth_gbps = 3000;
        QSignalSpy written(&saver, &ui::Autosaver::written);
        doc.setConfig(c, QStringLiteral("edit"));
        QVERIFY(written.wait(5000));
        const Loaded<Scenario> back = load_scenario_file(saver.path().toStdString());
        QVERIFY2(back.ok(), back.error_text().c_str());
        QCOMPARE(back.value->config.node.hbm_bandwidth_gbps, 3000.0);
        QVERIFY(ui::orphaned_autosaves().empty());  // our own process is running: not an orphan
        // Saving makes the autosave pointless.
        QTemporaryDir files;
        QCOMPARE(doc.save(files.filePath(QStringLiteral("s.comet.json"))), QString());
        QVERIFY(!QFile::exists(saver.path()));
        // An edit and its undo back to the saved state: nothing to keep either.
        c.node.hbm_bandwidth_gbps = 4000;
        doc.setConfig(c, QStringLiteral("edit"));
        saver.flush();
        QVERIFY(QFile::exists(saver.path()));
        doc.undoStack()->undo();
        QVERIFY(!doc.isModified());
        QVERIFY(!QFile::exists(saver.path()));
    }

    void aNormalExitRemovesTheAutosave() {
        QString path;
        {
            ui::ScenarioDocument doc;
            doc.reset(default_scenario());
            ui::Autosaver saver(&doc, 10'000);
            Config c = doc.config();
            c.cluster.nodes = 192;
            doc.setConfig(c, QStringLiteral("edit"));
            saver.flush();
            path = saver.path();
            QVERIFY(QFile::exists(path));
        }
        QVERIFY(!QFile::exists(path));
    }

    void anOrphanIsOfferedAndRestoredOnTopOfItsFile() {
        QTemporaryDir files;
        const QString original = files.filePath(QStringLiteral("mine.comet.json"));
        Scenario saved = default_scenario();
        saved.name = "Saved before the crash";
        QCOMPARE(QString::fromStdString(save_scenario_file(original.toStdString(), saved)), QString());
        Scenario unsaved = saved;
        unsaved.name = "Unsaved edits";
        unsaved.config.node.hbm_capacity_gib = 141;
        leave_orphan(dir_.path(), unsaved, original);
        QCOMPARE(ui::orphaned_autosaves().size(), std::size_t{1});

        app::MainWindow w;
        w.start({});
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("restoreBox"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QStringLiteral("Unsaved edits")));
        QVERIFY(box->text().contains(QStringLiteral("mine.comet.json")));
        QPushButton* restore = nullptr;
        for (QAbstractButton* b : box->buttons())
            if (b->text().contains(QStringLiteral("Restore"))) restore = qobject_cast<QPushButton*>(b);
        QVERIFY(restore);
        restore->click();
        const Scenario& now = w.document()->scenario();
        QCOMPARE(now.name, std::string("Unsaved edits"));
        QCOMPARE(now.config.node.hbm_capacity_gib, 141.0);
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.document()->filePath(), original);
        QVERIFY(ui::orphaned_autosaves().empty());  // taken
        // Undo goes back to the file as it was saved.
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->scenario().name, std::string("Saved before the crash"));
    }

    // kill -9 leaves a zombie until its parent reaps it: the autosave is offered all the same
    // (issue 40). So is one whose pid another program now holds; a running writer's is not.
    void aZombieOrARecycledPidLeavesAnOrphan() {
        const pid_t child = ::fork();
        if (child == 0) ::_exit(0);  // dies at once; not reaped below until the check is done
        QVERIFY(child > 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile f(QStringLiteral("/proc/%1/stat").arg(child));
                return f.open(QIODevice::ReadOnly) && f.readAll().contains(") Z ");
            }(),
            5000);
        QVERIFY(::kill(child, 0) == 0);  // the pid still exists
        leave_orphan(dir_.path(), default_scenario(), {}, child);
        std::vector<ui::AutosaveFile> found = ui::orphaned_autosaves();
        QCOMPARE(found.size(), std::size_t{1});
        QCOMPARE(found.front().pid, static_cast<qint64>(child));
        ui::remove_autosave(found.front());
        ::waitpid(child, nullptr, 0);
        // pid 1 is alive and is not this program (in a container it may be a shell; in a VM init).
        if (QFile(QStringLiteral("/proc/1/stat")).open(QIODevice::ReadOnly)) {
            leave_orphan(dir_.path(), default_scenario(), {}, 1);
            found = ui::orphaned_autosaves();
            QCOMPARE(found.size(), std::size_t{1});
            ui::remove_autosave(found.front());
        }
        QVERIFY(ui::orphaned_autosaves().empty());
    }

    // The heatmap's axes, colour, steps, search, pins and the page on top are saved with the file
    // and in the autosave, and come back on opening it or restoring after a crash (issue 40).
    void theViewComesBackWithTheFileAndAfterACrash() {
        // The file names a colour by the explorer's own metric ids, one for one.
        QCOMPARE(view_metric_ids().size(), ui::all_metrics().size());
        for (const ui::MetricInfo& m : ui::all_metrics())
            QVERIFY2(std::find(view_metric_ids().begin(), view_metric_ids().end(), std::string_view(m.id)) != view_metric_ids().end(),
                     m.id);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("view.comet.json"));
        app::ExplorerPage::View v;
        std::vector<ui::CellIndex> pins;
        {
            app::MainWindow w;
            w.start({});
            w.show();
            v = w.explorer()->view();
            v.x = Knob::tp;
            v.y = Knob::hbm_gbps;
            v.metric = ui::Metric::mfu;
            v.steps = 9;
            v.search = false;
            v.relative = true;  // the difference view
            w.explorer()->setView(v);
            w.explorer()->schedule();
            QTRY_VERIFY_WITH_TIMEOUT(w.explorer()->lastEvaluation() && w.explorer()->lastEvaluation()->spec.x.knob == Knob::tp &&
                                         w.explorer()->lastEvaluation()->spec.y &&
                                         w.explorer()->lastEvaluation()->spec.y->values.size() >= 5,
                                     60000);
            // Every cell is its MFU's change against the current cell's, which reads 0.
            const ui::HeatmapData& shown = w.explorer()->heatmap()->data();
            QVERIFY(shown.relative);
            QVERIFY2(shown.current.has_value(), qPrintable(shown.note));
            QCOMPARE(shown.at(shown.current->ix, shown.current->iy).value, 0.0);
            const ui::Evaluation& e = *w.explorer()->lastEvaluation();
            for (int iy = 0; iy < shown.ny; ++iy)
                for (int ix = 0; ix < shown.nx; ++ix)
                    if (std::isfinite(shown.at(ix, iy).value))
                        QCOMPARE(shown.at(ix, iy).value + 1.0,
                                 e.grid.at(ix, iy).result.mfu / e.grid.at(shown.current->ix, shown.current->iy).result.mfu);
            Q_EMIT w.explorer()->heatmap()->cellPinned({1, 2});
            Q_EMIT w.explorer()->heatmap()->cellPinned({0, 4});
            pins = w.explorer()->heatmap()->pinnedCells();
            QCOMPARE(pins.size(), std::size_t{2});
            w.pages()->setCurrentWidget(w.analysis());
            QVERIFY(w.document()->view().has_value());
            QCOMPARE(w.document()->view()->page, std::string("analysis"));
            QCOMPARE(w.document()->view()->x, std::string("tp"));
            QCOMPARE(w.document()->view()->pins.size(), std::size_t{2});
            QCOMPARE(w.document()->save(file), QString());
            QVERIFY(!w.document()->scenario().view.has_value());  // never in the undo history
        }
        const Loaded<Scenario> saved = load_scenario_file(file.toStdString());
        QVERIFY(saved.ok() && saved.value->view);
        QCOMPARE(saved.value->view->metric, std::string("mfu"));
        QCOMPARE(saved.value->view->steps, 9);
        QVERIFY(!saved.value->view->search);
        QVERIFY(saved.value->view->relative);
        const auto check = [&](app::MainWindow& w) {
            QTRY_VERIFY_WITH_TIMEOUT(w.explorer()->heatmap()->pinnedCells() == pins, 60000);
            const app::ExplorerPage::View got = w.explorer()->view();
            QCOMPARE(got.x, Knob::tp);
            QCOMPARE(got.y, Knob::hbm_gbps);
            QCOMPARE(got.metric, ui::Metric::mfu);
            QCOMPARE(got.steps, 9);
            QVERIFY(!got.search);
            QVERIFY(got.relative);
            QTRY_VERIFY_WITH_TIMEOUT(w.explorer()->heatmap()->data().relative, 60000);
            QCOMPARE(w.pages()->currentWidget(), static_cast<QWidget*>(w.analysis()));
        };
        {  // opening the file
            app::MainWindow w;
            w.start(file);
            w.show();
            check(w);
        }
        {  // a crash: the autosave holds the view; the restore brings it back on top of the file
            Scenario crashed = *saved.value;
            crashed.name = "Crashed with a view";
            leave_orphan(dir_.path(), crashed, file);
            app::MainWindow w;
            w.start({});
            w.show();
            auto* box = w.findChild<QMessageBox*>(QStringLiteral("restoreBox"));
            QVERIFY(box);
            for (QAbstractButton* b : box->buttons())
                if (b->text().contains(QStringLiteral("Restore"))) b->click();
            QCOMPARE(w.document()->scenario().name, std::string("Crashed with a view"));
            check(w);
        }
    }

    // The strategy family map (issue 40, item 8) in the window: every feasible cell names the
    // family of the strategy the sweep found for it; the difference box is off (categories have
    // no change to show) and on again for a number; the colouring is saved with the file.
    void theFamilyMapNamesEachCellsStrategyAndIsSaved() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("families.comet.json"));
        app::MainWindow w;
        w.start({});
        w.show();
        app::ExplorerPage::View v = w.explorer()->view();
        v.x = Knob::nodes;
        v.y = Knob::hbm_gbps;
        v.metric = ui::Metric::strategy_family;
        v.steps = 5;
        v.search = true;
        v.relative = true;  // asked for, but a family map has no change to show
        w.explorer()->setView(v);
        w.explorer()->schedule();
        QTRY_VERIFY_WITH_TIMEOUT(w.explorer()->lastEvaluation() && w.explorer()->lastEvaluation()->spec.x.knob == Knob::nodes &&
                                     !w.explorer()->heatmap()->data().categories.empty(),
                                 120000);
        const ui::HeatmapData& shown = w.explorer()->heatmap()->data();
        const ui::Evaluation& e = *w.explorer()->lastEvaluation();
        QVERIFY(!shown.relative);
        int named = 0;
        for (int iy = 0; iy < shown.ny; ++iy)
            for (int ix = 0; ix < shown.nx; ++ix) {
                const double value = shown.at(ix, iy).value;
                if (!std::isfinite(value)) continue;
                ++named;
                const QString family = ui::strategy_family(e.grid.at(ix, iy).strategy, e.grid.workload);
                QVERIFY(value >= 0 && value < static_cast<double>(shown.categories.size()));
                const QString category = shown.categories[static_cast<std::size_t>(value)];
                QVERIFY2(category == family || category == QStringLiteral("Other"), qPrintable(category + QStringLiteral(" / ") + family));
            }
        QVERIFY(named > 0);
        QCheckBox* box = nullptr;
        for (QCheckBox* b : w.explorer()->findChildren<QCheckBox*>())
            if (b->text() == QStringLiteral("vs c&urrent")) box = b;
        QVERIFY(box != nullptr);
        QVERIFY(!box->isEnabled());
        QCOMPARE(w.document()->save(file), QString());
        const Loaded<Scenario> saved = load_scenario_file(file.toStdString());
        QVERIFY(saved.ok() && saved.value->view);
        QCOMPARE(saved.value->view->metric, std::string("strategy_family"));
        v.metric = ui::Metric::mfu;  // a number again: the box is on
        w.explorer()->setView(v);
        QVERIFY(box->isEnabled());
    }

    void anOrphanCanBeDiscarded() {
        Scenario s = default_scenario();
        s.name = "Throw away";
        leave_orphan(dir_.path(), s, {});
        app::MainWindow w;
        w.start({});
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("restoreBox"));
        QVERIFY(box);
        QVERIFY(box->text().contains(QStringLiteral("never saved")));
        for (QAbstractButton* b : box->buttons())
            if (b->text().contains(QStringLiteral("Discard"))) b->click();
        QVERIFY(w.document()->scenario().name != "Throw away");
        QVERIFY(ui::orphaned_autosaves().empty());
    }

    void anUnreadableOrphanIsRemovedWithAMessage() {
        const QString base = QDir(dir_.path()).filePath(QStringLiteral("autosave-%1").arg(dead_pid));
        test::write_file(base + QStringLiteral(".comet.json"), "{ not json");
        test::write_file(base + QStringLiteral(".meta.json"),
                         QStringLiteral(R"({"pid": %1, "file": "", "saved": "2026-11-30T03:00:00Z"})").arg(dead_pid).toUtf8());
        app::MainWindow w;
        w.start({});
        QVERIFY(!w.findChild<QMessageBox*>(QStringLiteral("restoreBox")));
        QVERIFY(ui::orphaned_autosaves().empty());
    }
};

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
