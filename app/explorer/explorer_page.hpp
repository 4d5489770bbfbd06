#pragma once
// The central page: heatmap with its axis and metric controls, and the breakdown and memory
// charts of the configuration being edited, the selected cell and the pinned cells.

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "common/axis_defaults.hpp"
#include "common/evaluation_controller.hpp"
#include "charts/chart_data.hpp"
#include "common/metrics.hpp"
#include "heatmap/heatmap_data.hpp"

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSplitter;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace comet::ui {
class BreakdownChartView;
class ChartRenderable;
class HeatmapWidget;
class MemoryChartView;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class ExplorerPage : public QWidget {
    Q_OBJECT
public:
    ExplorerPage(ui::ScenarioDocument* doc, QWidget* parent = nullptr);
    ~ExplorerPage() override;

    // Axis/metric choices, for the settings.
    struct View {
        Knob x = Knob::hbm_gbps;
        Knob y = Knob::scale_out_gbps;
        ui::Metric metric = ui::Metric::iteration_time;
        bool search = true;
        int steps = 33;
        bool relative = false;  // colour by the change against the current cell (ui::make_relative())
        // The user's axis ranges (View > Heatmap Axis Ranges); absent: around the current value.
        std::optional<ui::AxisRange> x_range, y_range;
    };
    [[nodiscard]] View view() const;
    void setView(const View& v);

    [[nodiscard]] ui::HeatmapWidget* heatmap() const noexcept { return heatmap_; }
    [[nodiscard]] const std::optional<ui::Evaluation>& lastEvaluation() const noexcept { return last_; }
    [[nodiscard]] ui::EvaluationController* controller() noexcept { return &controller_; }
    // What the charts show now (for tests and export): bars in order, and the memory tiers.
    [[nodiscard]] const std::vector<ui::BreakdownBar>& shownBars() const noexcept { return shown_bars_; }
    // Presentation mode: the charts below the heatmap get half the height (zoomed text needs it).
    void setPresentation(bool on);
    // Presentation mode on a window of another size: the heatmap and the charts split anew.
    void presentationResized();
    // Why the breakdown has no bars ("Current configuration cannot run: ..."); empty when it has.
    [[nodiscard]] const QString& breakdownMessage() const noexcept { return breakdown_message_; }
    [[nodiscard]] const std::vector<ui::MemoryBar>& shownTiers() const noexcept { return shown_tiers_; }
    [[nodiscard]] std::optional<ui::CellIndex> selectedCell() const noexcept { return selected_; }
    void selectCell(ui::CellIndex cell);

    // The charts of this page for File > Export (heatmap, breakdown, memory).
    [[nodiscard]] const ui::ChartRenderable* heatmapChart() const;
    [[nodiscard]] const ui::ChartRenderable* breakdownChart() const;
    [[nodiscard]] const ui::ChartRenderable* memoryChart() const;
    // Presentation mode: select the next/previous pinned cell (wraps); its index or -1 if none.
    int stepPinned(int delta);

    // Exports of what is on screen; the format follows the file's extension (.png, .svg, .pdf;
    // .csv, .json for the grid). Return an empty string on success, else the reason.
    // The heatmap and the breakdown as files (PNG, SVG, PDF), each with the scenario's
    // assumptions under it.
    [[nodiscard]] QString exportHeatmap(const QString& path) const;
    [[nodiscard]] QString exportBreakdown(const QString& path) const;
    [[nodiscard]] QString exportGrid(const QString& path) const;
    // "3.811 s (likely −30 % to +10 %)": an evaluation's iteration time with its band, as the
    // status line and a slide's answer say it.
    [[nodiscard]] QString currentTimeText(const ui::Evaluation& e) const;
    [[nodiscard]] QString assumptions() const;  // assumptions_line() of the scenario

Q_SIGNALS:
    void statusMessage(const QString& text);
    void evaluated();  // a new evaluation is on screen

public Q_SLOTS:
    void schedule();           // re-evaluate the current configuration and grid
    void updateRelativeBox();  // off for a categorical colouring (strategy families)
    // View > Heatmap Axis Ranges: a dialog (a child of this page) that sets the axes' ranges on OK.
    void editAxisRanges();

private:
    void buildLayout();
    void placeControls(bool two_rows);
    void connectSignals();
    void show(const ui::Evaluation& e);
    void updateCharts();
    void pinCell(ui::CellIndex cell);
    void applySelectedCell();
    // The view into the document (saved with the file and in the autosave), and back when a file
    // brings one: axes, colour, steps, search and the pins, which come back on the first grid
    // that holds their values.
    void syncView();
    void loadView();
    [[nodiscard]] Config cellConfig(ui::CellIndex cell) const;
    // The current iteration time with its band: "95.022 s (likely +5 % to +12 %)" or "(not validated)".
    // Why a cell cannot run: the binding limit with its numbers (and the nearest change).
    [[nodiscard]] QString cellWhy(ui::CellIndex cell) const;
    [[nodiscard]] QString cellLabel(ui::CellIndex cell) const;
    // Its values only, x × y ("3145 GB/s × 10.51 GB/s"), where the axes say which is which.
    [[nodiscard]] QString cellValues(ui::CellIndex cell) const;

    ui::ScenarioDocument* doc_;
    ui::EvaluationController controller_;
    QComboBox* x_knob_ = nullptr;
    QComboBox* y_knob_ = nullptr;
    QComboBox* metric_ = nullptr;
    QCheckBox* search_ = nullptr;
    QCheckBox* relative_ = nullptr;
    std::optional<ui::AxisRange> x_range_, y_range_;  // the user's axis ranges (View::x_range)
    QSpinBox* steps_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* clear_pins_ = nullptr;
    QLabel* summary_ = nullptr;
    ui::HeatmapWidget* heatmap_ = nullptr;
    std::unique_ptr<ui::BreakdownChartView> breakdown_;
    std::unique_ptr<ui::MemoryChartView> memory_;
    // What is on screen: the controller's newest delivered evaluation (kept there, not copied).
    const std::optional<ui::Evaluation>& last_ = controller_.latest();
    std::optional<SweepSpec> shown_spec_;  // the grid on screen, to keep selection and pins on it
    std::optional<ui::CellIndex> selected_;
    std::vector<ui::CellIndex> pinned_;
    std::vector<std::array<double, 2>> pending_pins_;  // from a loaded view, until its grid is shown
    std::vector<ui::BreakdownBar> shown_bars_;
    QString breakdown_message_;
    QSplitter* vertical_ = nullptr;     // heatmap above the charts
    QSplitter* charts_ = nullptr;       // the breakdown beside the memory chart
    QList<int> normal_chart_sizes_;     // its sizes before presentation mode
    QHBoxLayout* controls_ = nullptr;   // knob pickers (and the rest, but in presentation mode)
    QHBoxLayout* controls2_ = nullptr;  // colour, steps and search in presentation mode
    QLabel* metric_label_ = nullptr;
    QList<int> normal_sizes_;  // its sizes before presentation mode
    void applyPresentationSplit();
    bool presentation_ = false;
    int presentation_split_ = -1;  // the heatmap's share (%) last set in presentation mode
    std::vector<ui::MemoryBar> shown_tiers_;
};

}  // namespace comet::app
