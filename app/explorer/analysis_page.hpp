#pragma once
// The Cost & Sensitivity page: prices (saved in the scenario), what an iteration, a million
// tokens and the training run cost for the configuration as given and with its best strategy,
// which hardware resource matters most (tornado) and the time/cost Pareto chart across the
// designs and cluster sizes. Everything is computed in the background when the scenario changes.

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "common/latest_job.hpp"
#include "common/while_shown.hpp"
#include "report/report.hpp"

class QDoubleSpinBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace comet::ui {
class ChartRenderable;
class ParetoChartView;
class ScenarioDocument;
class TornadoChartView;
}  // namespace comet::ui

namespace comet::app {

// "96, 192,384" -> {96, 192, 384}; an empty text is an empty list. On a bad entry, `problem`
// names it and the allowed range.
[[nodiscard]] std::vector<int> parse_node_list(const QString& text, QString& problem);

class AnalysisPage : public QWidget {
    Q_OBJECT
public:
    explicit AnalysisPage(ui::ScenarioDocument* doc, QWidget* parent = nullptr);
    ~AnalysisPage() override;

    // What the page shows: a report's data without its grid and comparison.
    [[nodiscard]] const std::optional<ui::ReportData>& analysis() const noexcept { return shown_; }
    [[nodiscard]] const ui::ChartRenderable* tornadoChart() const;
    [[nodiscard]] const ui::ChartRenderable* paretoChart() const;
    [[nodiscard]] QString costSummaryHtml() const;
    void setFraction(double fraction);  // 0.01 .. 0.95
    [[nodiscard]] double fraction() const;
    void setParetoNodes(const QString& text);
    [[nodiscard]] QString paretoNodesText() const;
    void waitForResults();  // tests
    // Presentation mode: tornado and Pareto side by side, the prices panel as wide as its contents.
    void setPresentation(bool on);

Q_SIGNALS:
    void statusMessage(const QString& text);
    void analysed();

protected:
    void changeEvent(QEvent* e) override;

private:
    void buildLayout();
    void schedule();  // the analysis, when the page is on screen
    void analyse();
    void show(ui::ReportData a);
    void showInputs();
    void editCost(int field, double value);

    ui::ScenarioDocument* doc_;
    ui::LatestJob job_;
    ui::WhileShown* analyse_ = nullptr;
    std::vector<QDoubleSpinBox*> cost_fields_;
    QLineEdit* tokens_ = nullptr;
    QFormLayout* tokens_form_ = nullptr;  // the prices form (its "Tokens to train" label follows the workload)
    QLabel* power_ = nullptr;
    QSpinBox* fraction_ = nullptr;
    QLineEdit* nodes_ = nullptr;
    QLabel* summary_ = nullptr;
    QSplitter* charts_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    bool presentation_ = false;
    std::unique_ptr<ui::TornadoChartView> tornado_;
    std::unique_ptr<ui::ParetoChartView> pareto_;
    std::optional<ui::ReportData> shown_;
    std::vector<int> pareto_nodes_;
};

}  // namespace comet::app
