#pragma once
// Runs evaluations off the GUI thread, through the explorer's one LatestJob runner with a
// debounce. A request starts at once when nothing runs; during a burst of edits the newest wins:
// it cancels the one in flight (which stops within one grid cell), waits for the burst to settle
// (debounce), and a result that is not the newest is dropped. The grid itself is evaluated in
// parallel by TBB inside the worker, and so is its heatmap data (colours and tooltips of every
// cell), so that a large grid reaches the screen without stalling the event loop.

#include <QElapsedTimer>
#include <QObject>
#include <optional>

#include "comet/sweep.hpp"
#include "comet/validation.hpp"
#include "heatmap/heatmap_data.hpp"
#include "latest_job.hpp"
#include "metrics.hpp"

namespace comet::ui {

struct Evaluation {
    quint64 generation = 0;
    Config config;   // the configuration being edited
    Result current;  // its evaluation
    SweepSpec spec;
    SweepResult grid;
    double elapsed_ms = 0;  // worker time for the grid
    Metric metric = Metric::iteration_time;
    HeatmapData heatmap;  // make_heatmap_data(spec, grid, metric, cell of config), from the worker
    TrustBand band;       // how far to trust `current` (its node's and software's published runs)
    CostInputs cost;      // the scenario's prices and token budget (the cost metrics)
};

class EvaluationController : public QObject {
    Q_OBJECT
public:
    explicit EvaluationController(QObject* parent = nullptr);
    ~EvaluationController() override;  // cancels and waits for the worker

    // Schedules an evaluation of `config` and of the grid `spec` around it, coloured by `metric`;
    // `software_name` is the scenario's name of its software (which preset it is, for the band);
    // `cost` its prices and token budget, for the cost metrics.
    void request(const Config& config, const SweepSpec& spec, Metric metric = Metric::iteration_time, const std::string& software_name = {},
                 const CostInputs& cost = {});
    // The newest evaluation delivered (what finished() carried last); empty before the first.
    [[nodiscard]] const std::optional<Evaluation>& latest() const noexcept { return latest_; }
    void setDebounce(int ms) { job_.setDebounce(ms); }
    void cancel();  // stops the evaluation in flight (its result is dropped)
    [[nodiscard]] bool busy() const noexcept { return job_.busy(); }
    [[nodiscard]] quint64 latestGeneration() const noexcept { return job_.generation(); }

Q_SIGNALS:
    void started(quint64 generation);
    void progress(quint64 generation, int done, int total);
    void finished(const comet::ui::Evaluation& evaluation);  // only for the newest request
    void cancelled(quint64 generation);

private:
    std::optional<Evaluation> latest_;
    LatestJob job_;  // last: destroyed (cancelled and waited for) before the rest
};

}  // namespace comet::ui

Q_DECLARE_METATYPE(comet::ui::Evaluation)
