#include "evaluation_controller.hpp"

#include "validation_status.hpp"

#include <QPointer>
#include <chrono>
#include <cstdint>
#include <memory>

#include "comet/evaluate.hpp"

namespace comet::ui {

EvaluationController::EvaluationController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<comet::ui::Evaluation>();
    job_.setDebounce(30);
    connect(&job_, &LatestJob::started, this, &EvaluationController::started);
}

EvaluationController::~EvaluationController() {
    job_.cancel();
    job_.wait();
}

void EvaluationController::cancel() {
    job_.cancel();
    Q_EMIT cancelled(job_.generation());
}

void EvaluationController::request(const Config& config, const SweepSpec& spec, Metric metric, const std::string& software_name,
                                   const CostInputs& cost) {
    QPointer<EvaluationController> self(this);
    job_.run([self, config, spec, metric, software_name, cost](const LatestJob::Context& context) -> std::function<void()> {
        const quint64 generation = context.generation;
        Evaluation e;
        e.generation = generation;
        e.config = config;
        e.spec = spec;
        e.cost = cost;
        e.current = evaluate(config);
        e.band = shipped_trust_band(config.node, config.software, software_name);
        QElapsedTimer timer;
        timer.start();
        auto last_report = std::make_shared<std::atomic<std::int64_t>>(0);
        SearchControl control;
        control.cancel = &context.cancel;
        control.progress = [self, generation, last_report, &timer](std::uint64_t done, std::uint64_t total) {
            // Worker threads: report at most every 50 ms, through the GUI thread's queue.
            const std::int64_t now = timer.elapsed();
            std::int64_t before = last_report->load();
            if ((now - before < 50 && done != total) || !last_report->compare_exchange_strong(before, now)) return;
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, done, total] {
                    if (self && generation == self->job_.generation()) Q_EMIT self->progress(generation, int(done), int(total));
                },
                Qt::QueuedConnection);
        };
        e.grid = run_sweep(config, spec, control);
        e.elapsed_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        if (context.cancel.load() || e.grid.cancelled) return {};  // stale: nothing to deliver
        e.metric = metric;
        const HeatmapCost priced{config, cost};
        e.heatmap = make_heatmap_data(spec, e.grid, metric, cell_of(spec, config), &priced);
        // Shared, so that the delivery does not copy the grid on the GUI thread.
        auto shared = std::make_shared<Evaluation>(std::move(e));
        return [self, shared] {
            if (!self) return;
            self->latest_ = std::move(*shared);
            Q_EMIT self->finished(*self->latest_);
        };
    });
}

}  // namespace comet::ui
