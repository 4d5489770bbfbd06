#pragma once
// View > Heatmap Axis Ranges: the user's range of each heatmap axis, or the automatic one
// around the current value (issue 40 item 8). The dialog only edits; the explorer applies it.

#include <QDialog>
#include <optional>

#include "comet/knobs.hpp"
#include "common/axis_defaults.hpp"

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace comet::app {

class AxisRangeDialog : public QDialog {
    Q_OBJECT
public:
    // `y` == `x`: a one-axis sweep, the second row is hidden.
    AxisRangeDialog(Knob x, Knob y, std::optional<ui::AxisRange> x_range, std::optional<ui::AxisRange> y_range,
                    const std::array<double, 2>& x_now, const std::array<double, 2>& y_now, QWidget* parent = nullptr);

    [[nodiscard]] std::optional<ui::AxisRange> xRange() const { return rangeOf(0); }
    [[nodiscard]] std::optional<ui::AxisRange> yRange() const { return rangeOf(1); }
    // Why OK is off: the first row's problem (ui::range_problem()), empty when both can be used.
    [[nodiscard]] QString problem() const;

    // The editors, for tests: automatic, from and to of row 0 (x) or 1 (y).
    [[nodiscard]] QCheckBox* automatic(int row) const { return rows_[row].automatic; }
    [[nodiscard]] QDoubleSpinBox* from(int row) const { return rows_[row].from; }
    [[nodiscard]] QDoubleSpinBox* to(int row) const { return rows_[row].to; }

private:
    struct Row {
        Knob knob = Knob::hbm_gbps;
        QCheckBox* automatic = nullptr;
        QDoubleSpinBox* from = nullptr;
        QDoubleSpinBox* to = nullptr;
        bool shown = true;
    };
    [[nodiscard]] std::optional<ui::AxisRange> rangeOf(int row) const;
    void check();

    std::array<Row, 2> rows_;
    QLabel* problem_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace comet::app
