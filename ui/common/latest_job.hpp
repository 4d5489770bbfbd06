#pragma once
// Background work where only the newest request matters (the comparison and the analysis
// pages): each run() cancels the one before, its result is dropped if a newer run exists, and
// the delivery runs on the GUI thread. The destructor cancels and waits, so a delivery never
// reaches a deleted page.

#include <QFuture>
#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace comet::ui {

class LatestJob : public QObject {
    Q_OBJECT
public:
    // Runs on a worker thread; returns what to do with its result on the GUI thread.
    using Work = std::function<std::function<void()>(const std::atomic<bool>& cancel)>;

    explicit LatestJob(QObject* parent = nullptr);
    ~LatestJob() override;

    void run(Work work);
    void cancel();  // the running work stops at its next check; nothing is delivered
    [[nodiscard]] bool busy() const noexcept { return running_ > 0; }
    // Blocks until no work is running (tests, shutdown).
    void wait();

Q_SIGNALS:
    void busyChanged(bool busy);

private:
    quint64 generation_ = 0;
    int running_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::vector<QFuture<void>> futures_;
};

// Typed convenience: `compute` on a worker thread, `deliver` with its result on the GUI thread.
template <class T, class Compute, class Deliver>
void run_latest(LatestJob& job, Compute compute, Deliver deliver) {
    job.run([compute = std::move(compute), deliver = std::move(deliver)](const std::atomic<bool>& cancel) {
        auto result = std::make_shared<T>(compute(cancel));
        return std::function<void()>([deliver, result] { deliver(std::move(*result)); });
    });
}

}  // namespace comet::ui
