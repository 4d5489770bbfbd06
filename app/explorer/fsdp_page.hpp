#pragma once
// The FSDP Balance page (comet::fsdp_balance): for the scenario's model, node and strategy with
// ZeRO-3, how many tokens per GPU a microbatch needs to hide the FSDP weight gathers and gradient
// reduce-scatters behind its compute, against how many HBM leaves room for, over data-parallel
// sizes: a chart and a table of the numbers. Computed in the background whenever the scenario
// changes.

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "comet/fsdp.hpp"
#include "common/latest_job.hpp"
#include "common/while_shown.hpp"

class QLabel;
class QTableWidget;

namespace comet::ui {
class ChartRenderable;
class FsdpChartView;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class FsdpPage : public QWidget {
    Q_OBJECT
public:
    explicit FsdpPage(ui::ScenarioDocument* doc, QWidget* parent = nullptr);
    ~FsdpPage() override;

    // Table columns.
    enum Column { col_dp, col_gpus, col_needed, col_allowed, col_microbatch, col_traffic, col_verdict, col_count };

    // What is on screen: the configuration it was computed for and one point per dp.
    struct Balance {
        Config config;
        std::vector<int> dps;
        std::vector<FsdpPoint> points;
    };
    [[nodiscard]] const std::optional<Balance>& balance() const noexcept { return shown_; }
    [[nodiscard]] const ui::ChartRenderable* chart() const;
    [[nodiscard]] QTableWidget* table() const noexcept { return table_; }
    [[nodiscard]] QString summaryText() const;
    void waitForResults();  // tests: blocks until the background computation is delivered

Q_SIGNALS:
    void computed();  // a new balance is on screen

private:
    void buildLayout();
    void schedule();  // the balance, when the page is on screen
    void computeBalance();
    void show(Balance b);
    void fillTable();

    ui::ScenarioDocument* doc_;
    ui::LatestJob job_;
    ui::WhileShown* balance_ = nullptr;
    QLabel* intro_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::unique_ptr<ui::FsdpChartView> chart_;
    std::optional<Balance> shown_;
};

}  // namespace comet::app
