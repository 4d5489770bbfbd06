#include "evaluation_controller.hpp"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "comet/evaluate.hpp"

namespace comet::ui {

EvaluationController::EvaluationController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<comet::ui::Evaluation>();
    debounce_.setSingleShot(true);
    debounce_.setInterval(30);
    connect(&debounce_, &QTimer::timeout, this, &EvaluationController::launch);
}

EvaluationController::~EvaluationController() {
    if (cancel_) cancel_->store(true);
    for (auto& f : futures_) f.waitForFinished();
}

void EvaluationController::request(const Config& config, const SweepSpec& spec, Metric metric) {
    pending_config_ = config;
    pending_spec_ = spec;
    pending_metric_ = metric;
    ++generation_;
    // Idle: start at once, so a single edit costs no debounce delay. Busy: the running
    // evaluation is stale; cancel it and start the newest request once the burst settles.
    if (running_ == 0 && !debounce_.isActive()) {
        launch();
        return;
    }
    if (cancel_) cancel_->store(true);
    debounce_.start();
}

void EvaluationController::cancel() {
    debounce_.stop();
    if (cancel_) cancel_->store(true);
    ++generation_;
    Q_EMIT cancelled(generation_);
}

void EvaluationController::launch() {
    std::erase_if(futures_, [](const QFuture<void>& f) { return f.isFinished(); });
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = generation_;
    ++running_;
    Q_EMIT started(generation);

    QPointer<EvaluationController> self(this);
    auto flag = cancel_;
    auto last_report = std::make_shared<std::atomic<std::int64_t>>(0);
    futures_.push_back(QtConcurrent::run([self, flag, last_report, generation, config = pending_config_, spec = pending_spec_, metric = pending_metric_] {
        Evaluation e;
        e.generation = generation;
        e.config = config;
        e.spec = spec;
        e.current = evaluate(config);
        QElapsedTimer timer;
        timer.start();
        SearchControl control;
        control.cancel = flag.get();
        control.progress = [self, generation, last_report, &timer](std::uint64_t done, std::uint64_t total) {
            // Worker threads: report at most every 50 ms, through the GUI thread's queue.
            const std::int64_t now = timer.elapsed();
            std::int64_t before = last_report->load();
            if ((now - before < 50 && done != total) || !last_report->compare_exchange_strong(before, now)) return;
            QMetaObject::invokeMethod(self.data(), [self, generation, done, total] {
                if (self && generation == self->generation_) Q_EMIT self->progress(generation, int(done), int(total));
            }, Qt::QueuedConnection);
        };
        e.grid = run_sweep(config, spec, control);
        e.elapsed_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        const bool was_cancelled = flag->load() || e.grid.cancelled;
        if (!was_cancelled) {
            e.metric = metric;
            e.heatmap = make_heatmap_data(spec, e.grid, metric, cell_of(spec, config));
        }
        // Shared, so that the queued call does not copy the grid on the GUI thread.
        auto shared = std::make_shared<Evaluation>(std::move(e));
        QMetaObject::invokeMethod(self.data(), [self, shared, was_cancelled] {
            if (!self) return;
            --self->running_;
            if (was_cancelled || shared->generation != self->generation_) return;  // stale: a newer request exists
            self->latest_ = std::move(*shared);
            Q_EMIT self->finished(*self->latest_);
        }, Qt::QueuedConnection);
    }));
}

}  // namespace comet::ui
