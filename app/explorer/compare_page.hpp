#pragma once
// The Compare page: up to four designs (node, cluster size, fixed or best strategy) training the
// scenario's model side by side: a table with speedups over a chosen baseline, memory and cost,
// the time breakdown of every design and its HBM use. Designs live in the scenario (saved with
// it, every edit undoable); the comparison runs in the background whenever the scenario changes.

#include <QWidget>
#include <memory>
#include <optional>

#include "charts/chart_data.hpp"
#include "comet/compare.hpp"
#include "comet/validation.hpp"
#include "common/latest_job.hpp"
#include "common/while_shown.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableWidget;

namespace comet::ui {
class BreakdownChartView;
class ChartRenderable;
class MemoryChartView;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(ui::ScenarioDocument* doc, QWidget* parent = nullptr);
    ~ComparePage() override;

    // Table columns; the first five are the design's inputs and editable.
    // The numbers first, the long strategy text last: on a narrow screen what scrolls sideways
    // is the end of a strategy, never a result.
    enum Column {
        col_name,
        col_node,
        col_nodes,
        col_price,
        col_time,
        col_speedup,
        col_mfu,
        col_hbm,
        col_cost,
        col_train,
        col_band,
        col_strategy,
        col_count
    };
    static constexpr int col_results_end = col_band + 1;  // the result columns are [col_time, col_results_end)

    // Adds the scenario's node, cluster and strategy as a design (undoable); false when full.
    bool addCurrent(bool best_strategy);
    // Adds a node preset at a cluster size with the best strategy, on a software preset (empty:
    // the scenario's software); false when full or either preset is unknown.
    bool addPreset(const QString& preset_id, int nodes, const QString& software_id = {});
    // Design `row` runs on a software preset (undoable); empty = the scenario's software again.
    // False for an unknown row or preset.
    bool setDesignSoftware(int row, const QString& software_id);
    void removeDesign(int index);
    void setBaseline(int index);
    // Presentation mode: the two charts get half the width each (their zoomed bar labels need it).
    void setPresentation(bool on);
    // Presentation mode: highlight the next/previous design (wraps); returns its index or -1.
    int step(int delta);

    [[nodiscard]] const std::optional<Comparison>& comparison() const noexcept { return shown_; }
    [[nodiscard]] QTableWidget* table() const noexcept { return table_; }
    // How far to trust each shown design's answer (published runs of its node and software), in
    // the order of comparison()'s designs.
    [[nodiscard]] const std::vector<TrustBand>& trustBands() const noexcept { return bands_; }
    [[nodiscard]] QString hintText() const;  // the line above the table (what the designs share, price kinds)
    [[nodiscard]] const ui::ChartRenderable* breakdownChart() const;
    [[nodiscard]] const ui::ChartRenderable* memoryChart() const;
    [[nodiscard]] const std::vector<ui::BreakdownBar>& shownBars() const noexcept { return bars_; }
    [[nodiscard]] bool busy() const noexcept { return job_.busy(); }
    void waitForResults();  // tests: blocks until the background comparison is delivered

    // Comparison data as CSV (.csv) or JSON (.json), written atomically; "" or the reason.
    [[nodiscard]] QString exportData(const QString& path) const;

Q_SIGNALS:
    void statusMessage(const QString& text);
    void compared();  // a new comparison is on screen

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void buildLayout();
    void fitTableHeight();
    void schedule();  // the table now, the comparison when the page is on screen
    void compare();
    void show(Comparison c, std::vector<TrustBand> bands);
    void fillTable();
    void updateCharts();
    void onItemChanged(int row, int column);
    void addPresetDialog();
    void tableMenu(const QPoint& pos);
    void updateButtons();
    [[nodiscard]] Scenario withDesigns(std::vector<Design> designs) const;

    ui::ScenarioDocument* doc_;
    ui::LatestJob job_;
    ui::WhileShown* compare_ = nullptr;
    QPushButton* add_current_ = nullptr;
    QPushButton* add_best_ = nullptr;
    QPushButton* add_preset_ = nullptr;
    QPushButton* remove_ = nullptr;
    QComboBox* baseline_ = nullptr;
    QLabel* hint_ = nullptr;
    QTableWidget* table_ = nullptr;
    std::unique_ptr<ui::BreakdownChartView> breakdown_;
    std::unique_ptr<ui::MemoryChartView> memory_;
    std::optional<Comparison> shown_;
    std::vector<TrustBand> bands_;  // one per design of shown_
    std::vector<ui::BreakdownBar> bars_;
    int highlighted_ = -1;
    QSplitter* charts_ = nullptr;  // breakdown beside memory
    QList<int> normal_sizes_;      // its sizes before presentation mode
    bool presentation_ = false;    // the name and strategy columns wrap
    bool filling_ = false;         // table edits made by fillTable() are not user edits
};

}  // namespace comet::app
