// The GUI stays responsive while a large grid evaluates: the grid runs on worker threads and the
// event loop keeps serving timers. The test measures the longest stall of the event loop (the
// largest gap between ticks of a 5 ms timer) from the request until the heatmap shows the
// result, and prints it; it asserts only what does not depend on the machine's speed: the loop
// kept running while the grid was computed. The 100 ms target is checked by reading the printed
// figure (docs/performance.md), not by a timing assertion.
#include <QtTest>

#include <QElapsedTimer>
#include <QStandardPaths>
#include <algorithm>

#include "comet/presets.hpp"
#include "explorer_page.hpp"
#include "common/scenario_document.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "main_window.hpp"

#include "ui_fixtures.hpp"

using namespace comet;

class TestResponsiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolate_user_state(QStringLiteral("test_responsiveness")); }

    void eventLoopKeepsRunningWhileALargeGridEvaluates() {
        app::MainWindow w;
        w.resize(1500, 950);
        w.start(QString::fromStdString((presets_dir() / "scenarios" / "default.comet.json").string()), false);
        w.show();
        QSignalSpy first(w.explorer(), &app::ExplorerPage::evaluated);
        QVERIFY(first.wait(30000));

        // 128 x 128 cells of HBM x scale-out bandwidth, the best strategy searched in each.
        app::ExplorerPage::View v = w.explorer()->view();
        v.steps = 128;
        v.search = true;
        w.explorer()->setView(v);

        QElapsedTimer clock;
        qint64 last_tick_ms = 0;
        qint64 longest_ms = 0;
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            longest_ms = std::max(longest_ms, now - last_tick_ms);
            last_tick_ms = now;
            ++ticks;
        });
        QSignalSpy done(w.explorer(), &app::ExplorerPage::evaluated);
        clock.start();
        ticker.start();
        w.explorer()->schedule();
        QVERIFY(done.wait(300000));
        QCoreApplication::processEvents();  // the repaint that follows the result
        const qint64 total_ms = clock.elapsed();
        longest_ms = std::max(longest_ms, total_ms - last_tick_ms);
        ticker.stop();

        const auto& e = w.explorer()->lastEvaluation();
        QVERIFY(e.has_value());
        QVERIFY(e->grid.nx >= 128 && e->grid.ny >= 128);  // the current value joins the 128 steps
        qInfo("128 x 128 grid with search: %lld ms until shown; longest event-loop stall %lld ms; %d timer ticks",
              static_cast<long long>(total_ms), static_cast<long long>(longest_ms), ticks);
        // Had the grid run on the GUI thread, no tick would fire until it was done.
        QVERIFY2(ticks >= 3, qPrintable(QStringLiteral("only %1 ticks in %2 ms").arg(ticks).arg(total_ms)));
        QVERIFY2(longest_ms < total_ms || total_ms < 20, "the whole evaluation blocked the event loop");
    }

    // Issue 16's second speed target: from a knob edit to the redrawn heatmap on the default
    // scenario, with the explorer's default view (33 x 33 HBM x scale-out bandwidth, the best
    // strategy searched in every cell). Printed, not asserted (docs/performance.md); what is
    // asserted is that every edit is what the heatmap then shows.
    void editToPixelsOnTheDefaultHeatmap() {
        app::MainWindow w;
        w.resize(1920, 1080);
        w.start(QString::fromStdString((presets_dir() / "scenarios" / "default.comet.json").string()), false);
        w.show();
        QSignalSpy first(w.explorer(), &app::ExplorerPage::evaluated);
        QVERIFY(first.wait(30000));
        QCOMPARE(w.explorer()->view().steps, 33);
        QVERIFY(w.explorer()->view().search);
        ui::ScenarioDocument* doc = w.document();
        const long long batch = doc->config().training.global_batch;
        std::vector<qint64> times_us;
        std::vector<double> worker_ms;
        for (int edit = 0; edit < 9; ++edit) {
            Config c = doc->config();
            c.training.global_batch = edit % 2 == 0 ? 2 * batch : batch;  // as the batch field would
            QSignalSpy done(w.explorer(), &app::ExplorerPage::evaluated);
            QElapsedTimer clock;
            clock.start();
            doc->setConfig(c, QStringLiteral("global batch"));
            QVERIFY(done.wait(30000));
            w.explorer()->heatmap()->repaint();  // the pixels, not just the request for them
            times_us.push_back(clock.nsecsElapsed() / 1000);
            const auto& e = w.explorer()->lastEvaluation();
            QVERIFY(e.has_value());
            QCOMPARE(e->config.training.global_batch, c.training.global_batch);
            QCOMPARE(e->grid.nx * e->grid.ny >= 33 * 33, true);
            worker_ms.push_back(e->elapsed_ms);
        }
        std::sort(worker_ms.begin(), worker_ms.end());
        std::vector<qint64> sorted = times_us;
        std::sort(sorted.begin(), sorted.end());
        qInfo(
            "edit to redrawn 33 x 33 heatmap with search (default scenario): median %.1f ms, min %.1f ms, max %.1f ms over %zu "
            "edits; of which the grid on the worker: median %.1f ms",
            static_cast<double>(sorted[sorted.size() / 2]) / 1000.0, static_cast<double>(sorted.front()) / 1000.0,
            static_cast<double>(sorted.back()) / 1000.0, sorted.size(), worker_ms[worker_ms.size() / 2]);
    }
};

QTEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
