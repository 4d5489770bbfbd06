#include "latest_job.hpp"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace comet::ui {

LatestJob::LatestJob(QObject* parent) : QObject(parent) {}

LatestJob::~LatestJob() {
    if (cancel_) cancel_->store(true);
    wait();
}

void LatestJob::wait() {
    for (auto& f : futures_) f.waitForFinished();
}

void LatestJob::cancel() {
    if (cancel_) cancel_->store(true);
    ++generation_;
}

void LatestJob::run(Work work) {
    std::erase_if(futures_, [](const QFuture<void>& f) { return f.isFinished(); });
    if (cancel_) cancel_->store(true);  // the previous run is stale
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++generation_;
    if (running_++ == 0) Q_EMIT busyChanged(true);
    QPointer<LatestJob> self(this);
    futures_.push_back(QtConcurrent::run([self, flag = cancel_, generation, work = std::move(work)] {
        std::function<void()> deliver;
        try {
            deliver = work(*flag);
        } catch (const std::exception&) {  // allocation failure: deliver nothing
        }
        QMetaObject::invokeMethod(self.data(), [self, flag, generation, deliver = std::move(deliver)] {
            if (!self) return;
            if (--self->running_ == 0) Q_EMIT self->busyChanged(false);
            if (flag->load() || generation != self->generation_ || !deliver) return;
            deliver();
        }, Qt::QueuedConnection);
    }));
}

}  // namespace comet::ui
