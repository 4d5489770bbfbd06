#pragma once
// The one runner of background work in the explorer, where only the newest request matters (the
// heatmap, the comparison, the analysis, the FSDP balance, the report, the best-strategy dialog):
// run() makes every earlier request stale (the running work is told to cancel and its result is
// dropped), the delivery runs on the GUI thread, and the destructor cancels and waits, so a
// delivery never reaches a deleted page. With a debounce, a request made while work runs or
// waits starts only once requests pause for that long (a burst of edits costs one run); a
// request made while idle starts at once.

#include <QFuture>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace comet::ui {

class LatestJob : public QObject {
    Q_OBJECT
public:
    // What the work sees on its worker thread: the flag to poll and the request's generation.
    struct Context {
        const std::atomic<bool>& cancel;
        quint64 generation;
    };
    // Runs on a worker thread; returns what to do with its result on the GUI thread (nothing
    // when it returns an empty function).
    using Work = std::function<std::function<void()>(const Context& context)>;

    explicit LatestJob(QObject* parent = nullptr);
    ~LatestJob() override;

    // Schedules `work` and returns its generation (see generation()).
    quint64 run(Work work);
    // The running work stops at its next check, a waiting one is dropped; nothing is delivered.
    void cancel();
    void setDebounce(int ms) { debounce_.setInterval(ms); }
    // Running, or a request waiting for its debounce.
    [[nodiscard]] bool busy() const noexcept { return running_ > 0 || debounce_.isActive(); }
    // The newest request's generation: a result is delivered only for it.
    [[nodiscard]] quint64 generation() const noexcept { return generation_; }
    // Blocks until no work is running (tests, shutdown).
    void wait();

Q_SIGNALS:
    void busyChanged(bool busy);
    void started(quint64 generation);  // a request's work begins on a worker thread

private:
    void launch();
    void updateBusy();

    QTimer debounce_;
    Work pending_;
    quint64 pending_generation_ = 0;
    quint64 generation_ = 0;
    int running_ = 0;
    bool reported_busy_ = false;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::vector<QFuture<void>> futures_;
};

// Typed convenience: `compute(cancel)` on a worker thread, `deliver` with its result on the GUI thread.
template <class T, class Compute, class Deliver>
void run_latest(LatestJob& job, Compute compute, Deliver deliver) {
    job.run([compute = std::move(compute), deliver = std::move(deliver)](const LatestJob::Context& context) {
        auto result = std::make_shared<T>(compute(context.cancel));
        return std::function<void()>([deliver, result] { deliver(std::move(*result)); });
    });
}

}  // namespace comet::ui
