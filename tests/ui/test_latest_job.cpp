// LatestJob, the explorer's one background runner: latest wins, stale results are dropped,
// cancel delivers nothing, the debounce folds a burst into one run, and busy()/busyChanged
// follow the work.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "common/latest_job.hpp"

using comet::ui::LatestJob;

namespace {

// Work that spins until cancelled or `release` is set, then returns a delivery of `value`.
LatestJob::Work blocking(std::atomic<bool>& release, std::vector<int>& delivered, int value, std::atomic<int>& runs) {
    return [&release, &delivered, &runs, value](const LatestJob::Context& context) -> std::function<void()> {
        ++runs;
        while (!release.load() && !context.cancel.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (context.cancel.load()) return {};
        return [&delivered, value] { delivered.push_back(value); };
    };
}

// Runs the event loop until the job is idle (its deliveries are queued events), then once more.
void settle(LatestJob& job) {
    QElapsedTimer t;
    t.start();
    while (job.busy() && t.elapsed() < 10000) {
        job.wait();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    QCoreApplication::processEvents();
}

}  // namespace

class TestLatestJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void newestWinsAndStaleResultsAreDropped() {
        LatestJob job;
        std::atomic<bool> release{false};
        std::atomic<int> runs{0};
        std::vector<int> delivered;
        const quint64 g1 = job.run(blocking(release, delivered, 1, runs));
        const quint64 g2 = job.run(blocking(release, delivered, 2, runs));
        QVERIFY(g2 > g1);
        QCOMPARE(job.generation(), g2);
        release = true;
        settle(job);
        // Without a debounce both ran; only the newest was delivered (the first was cancelled).
        QCOMPARE(runs.load(), 2);
        QCOMPARE(delivered, std::vector<int>{2});
        QVERIFY(!job.busy());
    }

    void cancelDeliversNothing() {
        LatestJob job;
        std::atomic<bool> release{false};
        std::atomic<int> runs{0};
        std::vector<int> delivered;
        job.run(blocking(release, delivered, 1, runs));
        QVERIFY(job.busy());
        job.cancel();
        settle(job);
        QVERIFY(delivered.empty());
        QVERIFY(!job.busy());
    }

    void debounceFoldsABurstIntoOneRun() {
        LatestJob job;
        job.setDebounce(50);
        QSignalSpy started(&job, &LatestJob::started);
        std::atomic<bool> release{false};
        std::atomic<int> runs{0};
        std::vector<int> delivered;
        // Idle: the first request starts at once.
        const quint64 first = job.run(blocking(release, delivered, 1, runs));
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.at(0).at(0).toULongLong(), first);
        // Busy: the next ones cancel it and wait for the burst to pause; only the last runs.
        for (int v = 2; v <= 5; ++v) job.run(blocking(release, delivered, v, runs));
        QCOMPARE(started.count(), 1);
        QVERIFY(job.busy());
        release = true;
        settle(job);
        QCOMPARE(started.count(), 2);
        QCOMPARE(runs.load(), 2);  // the first (cancelled) and the last
        QCOMPARE(delivered, std::vector<int>{5});
    }

    void busyChangedFollowsTheWork() {
        LatestJob job;
        QSignalSpy busy(&job, &LatestJob::busyChanged);
        std::atomic<bool> release{false};
        std::atomic<int> runs{0};
        std::vector<int> delivered;
        job.run(blocking(release, delivered, 1, runs));
        job.run(blocking(release, delivered, 2, runs));
        release = true;
        settle(job);
        // One true when work started, one false when the last finished: no flicker in between.
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void destructionWaitsAndDeliversNothing() {
        std::atomic<bool> release{false};
        std::atomic<int> runs{0};
        std::vector<int> delivered;
        {
            LatestJob job;
            job.run(blocking(release, delivered, 1, runs));
        }  // cancels and waits: the worker stops, nothing is delivered afterwards
        QCoreApplication::processEvents();
        QVERIFY(delivered.empty());
        QCOMPARE(runs.load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLatestJob)
#include "test_latest_job.moc"
