#include "latest_job.hpp"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace comet::ui {

LatestJob::LatestJob(QObject* parent) : QObject(parent) {
    debounce_.setSingleShot(true);
    debounce_.setInterval(0);
    connect(&debounce_, &QTimer::timeout, this, &LatestJob::launch);
}

LatestJob::~LatestJob() {
    debounce_.stop();
    if (cancel_) cancel_->store(true);
    wait();
}

void LatestJob::wait() {
    for (auto& f : futures_) f.waitForFinished();
}

void LatestJob::cancel() {
    debounce_.stop();
    pending_ = nullptr;
    if (cancel_) cancel_->store(true);
    ++generation_;
    updateBusy();
}

quint64 LatestJob::run(Work work) {
    pending_ = std::move(work);
    pending_generation_ = ++generation_;
    if (cancel_) cancel_->store(true);  // whatever runs is stale now
    if (debounce_.interval() <= 0 || (running_ == 0 && !debounce_.isActive()))
        launch();
    else
        debounce_.start();  // restarts: the burst goes on
    updateBusy();
    return pending_generation_;
}

void LatestJob::updateBusy() {
    if (busy() == reported_busy_) return;
    reported_busy_ = busy();
    Q_EMIT busyChanged(reported_busy_);
}

void LatestJob::launch() {
    debounce_.stop();
    if (!pending_) return;
    std::erase_if(futures_, [](const QFuture<void>& f) { return f.isFinished(); });
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = pending_generation_;
    Work work = std::move(pending_);
    pending_ = nullptr;
    ++running_;
    updateBusy();
    Q_EMIT started(generation);
    QPointer<LatestJob> self(this);
    futures_.push_back(QtConcurrent::run([self, flag = cancel_, generation, work = std::move(work)] {
        std::function<void()> deliver;
        try {
            deliver = work(Context{*flag, generation});
        } catch (const std::exception&) {  // allocation failure: deliver nothing
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, flag, generation, deliver = std::move(deliver)] {
                if (!self) return;
                --self->running_;
                self->updateBusy();
                if (flag->load() || generation != self->generation_ || !deliver) return;
                deliver();
            },
            Qt::QueuedConnection);
    }));
}

}  // namespace comet::ui
