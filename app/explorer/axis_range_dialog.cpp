#include "axis_range_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "heatmap/heatmap_data.hpp"

namespace comet::app {
namespace {

// Enough decimals for the knob's small values (a fraction, a latency in µs), none for counts.
int decimals_for(const KnobInfo& k) { return k.integer ? 0 : (k.max <= 1.0 ? 3 : 2); }

}  // namespace

AxisRangeDialog::AxisRangeDialog(Knob x, Knob y, std::optional<ui::AxisRange> x_range, std::optional<ui::AxisRange> y_range,
                                 const std::array<double, 2>& x_now, const std::array<double, 2>& y_now, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Heatmap Axis Ranges"));
    auto* grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("From"), this), 0, 2);
    grid->addWidget(new QLabel(tr("To"), this), 0, 3);
    const Knob knobs[2] = {x, y};
    const std::optional<ui::AxisRange> given[2] = {x_range, y_range};
    const std::array<double, 2> now[2] = {x_now, y_now};
    for (int i = 0; i < 2; ++i) {
        Row& r = rows_[static_cast<std::size_t>(i)];
        r.knob = knobs[i];
        r.shown = i == 0 || y != x;
        const KnobInfo& k = knob_info(r.knob);
        auto* name = new QLabel((i == 0 ? tr("X: ") : tr("Y: ")) + ui::axis_title(r.knob), this);
        r.automatic = new QCheckBox(tr("Around the current value"), this);
        r.automatic->setToolTip(
            tr("The automatic range: a quarter to four times the current value, or the knob's usual "
               "values (powers of two, its choices)"));
        r.from = new QDoubleSpinBox(this);
        r.to = new QDoubleSpinBox(this);
        for (QDoubleSpinBox* box : {r.from, r.to}) {
            box->setDecimals(decimals_for(k));
            box->setRange(k.min, k.max);
            box->setSuffix(k.unit.empty() ? QString() : QStringLiteral(" ") + QString::fromUtf8(k.unit.data(), qsizetype(k.unit.size())));
            box->setAccelerated(true);
        }
        // A range given before, else the automatic axis' own ends to start from.
        r.from->setValue(given[i] ? given[i]->from : now[i][0]);
        r.to->setValue(given[i] ? given[i]->to : now[i][1]);
        r.automatic->setChecked(!given[i].has_value());
        grid->addWidget(name, 2 * i + 1, 0, 1, 4);
        grid->addWidget(r.automatic, 2 * i + 2, 1);
        grid->addWidget(r.from, 2 * i + 2, 2);
        grid->addWidget(r.to, 2 * i + 2, 3);
        for (QWidget* w : std::initializer_list<QWidget*>{name, r.automatic, r.from, r.to}) w->setVisible(r.shown);
        connect(r.automatic, &QCheckBox::toggled, this, &AxisRangeDialog::check);
        connect(r.from, &QDoubleSpinBox::valueChanged, this, &AxisRangeDialog::check);
        connect(r.to, &QDoubleSpinBox::valueChanged, this, &AxisRangeDialog::check);
    }
    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addWidget(problem_);
    layout->addWidget(buttons_);
    check();
}

std::optional<ui::AxisRange> AxisRangeDialog::rangeOf(int row) const {
    const Row& r = rows_[static_cast<std::size_t>(row)];
    if (!r.shown || r.automatic->isChecked()) return std::nullopt;
    return ui::AxisRange{r.from->value(), r.to->value()};
}

QString AxisRangeDialog::problem() const {
    for (int i = 0; i < 2; ++i) {
        const Row& r = rows_[static_cast<std::size_t>(i)];
        if (const auto range = rangeOf(i)) {
            const std::string why = ui::range_problem(r.knob, *range);
            if (!why.empty()) return QString::fromStdString(why);
        }
    }
    return {};
}

void AxisRangeDialog::check() {
    for (const Row& r : rows_) {
        r.from->setEnabled(!r.automatic->isChecked());
        r.to->setEnabled(!r.automatic->isChecked());
    }
    const QString why = problem();
    problem_->setText(why);
    problem_->setVisible(!why.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

}  // namespace comet::app
