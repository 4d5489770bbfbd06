#include "explorer_page.hpp"

#include "axis_range_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QStandardItemModel>
#include <QFileInfo>
#include <QImage>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_views.hpp"
#include "comet/infeasibility.hpp"
#include "comet/report.hpp"
#include "comet/sweep_io.hpp"
#include "common/axis_defaults.hpp"
#include "common/scenario_document.hpp"
#include "common/validation_status.hpp"
#include "export/chart_export.hpp"
#include "heatmap/heatmap_widget.hpp"

namespace comet::app {
namespace {

QString knob_text(const KnobInfo& k) {
    const QString label = QString::fromUtf8(k.label.data(), qsizetype(k.label.size()));
    return k.unit.empty() ? label
                          : label + QStringLiteral(" (") + QString::fromUtf8(k.unit.data(), qsizetype(k.unit.size())) + QStringLiteral(")");
}

void fill_knobs(QComboBox* box) {
    for (const KnobInfo& k : all_knobs()) box->addItem(knob_text(k), static_cast<int>(k.knob));
}

QString value_text(double v) { return QString::number(v, 'g', 4); }

// A cell's coordinate as people read it: "HBM bandwidth 3145 GB/s" for a quantity with a unit;
// "recompute=2" for counts and choices, whose labels spell out every value.
QString knob_value_label(const KnobInfo& k, double v) {
    if (k.unit.empty()) return QString::fromUtf8(k.id.data(), qsizetype(k.id.size())) + QLatin1Char('=') + value_text(v);
    return QString::fromUtf8(k.label.data(), qsizetype(k.label.size())) + QLatin1Char(' ') + value_text(v) + QLatin1Char(' ') +
           QString::fromUtf8(k.unit.data(), qsizetype(k.unit.size()));
}

}  // namespace

ExplorerPage::ExplorerPage(ui::ScenarioDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    buildLayout();
    connectSignals();
}

ExplorerPage::~ExplorerPage() = default;

// The difference view compares numbers: a strategy family map has none, so the box is off there.
void ExplorerPage::updateRelativeBox() {
    const bool families = metric_->currentData().toInt() == static_cast<int>(ui::Metric::strategy_family);
    relative_->setEnabled(!families);
    relative_->setToolTip(families ? tr("Strategy families are categories: there is no change to colour by")
                                   : tr("Colour each cell by its change against the current configuration's cell (the same metric, "
                                        "the same strategy rule): how much faster, cheaper or fuller than what the form describes"));
}

void ExplorerPage::buildLayout() {
    x_knob_ = new QComboBox(this);
    y_knob_ = new QComboBox(this);
    fill_knobs(x_knob_);
    fill_knobs(y_knob_);
    x_knob_->setToolTip(tr("Knob on the horizontal axis: any strategy, hardware or workload setting"));
    y_knob_->setToolTip(tr("Knob on the vertical axis"));
    metric_ = new QComboBox(this);
    for (const ui::MetricInfo& m : ui::all_metrics()) {
        // Short names fit the box beside the axes on a 1280-pixel screen; the title says it whole.
        metric_->addItem(m.short_label.isEmpty() ? m.label : m.short_label, static_cast<int>(m.metric));
        metric_->setItemData(metric_->count() - 1, m.label, Qt::ToolTipRole);
    }
    metric_->setToolTip(tr("What the colours show"));
    relative_ = new QCheckBox(tr("vs c&urrent"), this);
    relative_->setToolTip(
        tr("Colour each cell by its change against the current configuration's cell (the same metric, "
           "the same strategy rule): how much faster, cheaper or fuller than what the form describes"));
    search_ = new QCheckBox(tr("&Best strategy"), this);
    search_->setToolTip(
        tr("Search every parallelization strategy in each cell and show the best one, instead of "
           "evaluating the strategy in the form"));
    steps_ = new QSpinBox(this);
    // Odd counts only: the axis is centred on the current value, so "33 steps" is a 33 x 33 grid.
    steps_->setRange(3, 129);
    steps_->setSingleStep(2);
    steps_->setSuffix(tr(" steps"));
    steps_->setToolTip(tr("Cells per axis for continuous knobs (odd: the current value is the centre)"));
    // Long knob names must not widen the page beyond a 1280-pixel screen.
    for (QComboBox* box : {x_knob_, y_knob_, metric_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == metric_ ? 8 : 10);
        box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);  // whole names where there is room
    }
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(160);
    progress_->setTextVisible(false);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();

    // One row of controls; in presentation mode (large text) the colour, steps and search
    // controls move to a second row so that no knob name is cut.
    auto* controls = new QHBoxLayout;
    auto* controls2 = new QHBoxLayout;
    controls_ = controls;
    controls2_ = controls2;
    // Ten controls share a 1280-pixel row: a little less space between them keeps every knob
    // name whole.
    controls->setSpacing(4);
    controls2->setSpacing(4);
    auto add = [&](const QString& label, QWidget* w) {
        auto* l = new QLabel(label, this);
        l->setBuddy(w);
        controls->addWidget(l);
        controls->addWidget(w);
        return l;
    };
    add(tr("&X:"), x_knob_);
    add(tr("&Y:"), y_knob_);
    metric_label_ = add(tr("&Colour:"), metric_);
    placeControls(false);

    heatmap_ = new ui::HeatmapWidget(this);
    // A hatched cell's tooltip names its binding limit with its numbers, worked out on hover.
    heatmap_->setExplainer([this](ui::CellIndex cell) -> QString {
        if (!last_ || cell.ix >= last_->grid.nx || cell.iy >= last_->grid.ny) return {};
        const SweepCell& c = last_->grid.at(cell.ix, cell.iy);
        if (c.result.feasible || c.evaluated == 0) return {};  // a cell a cancelled sweep never reached
        return cellWhy(cell);
    });
    breakdown_ = ui::make_breakdown_chart(this);
    memory_ = ui::make_memory_chart(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_ = new QPushButton(tr("&Use selected cell"), this);
    apply_->setToolTip(tr("Set the form to the selected cell's axis values and strategy (undoable)"));
    apply_->setEnabled(false);
    clear_pins_ = new QPushButton(tr("Clear &pins"), this);
    clear_pins_->setToolTip(tr("Right-click or Ctrl+click a cell to pin it to the breakdown chart"));
    clear_pins_->setEnabled(false);

    auto* cell_bar = new QHBoxLayout;
    cell_bar->addWidget(summary_, 1);
    cell_bar->addWidget(apply_);
    cell_bar->addWidget(clear_pins_);

    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(breakdown_->widget());
    charts->addWidget(memory_->widget());
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setChildrenCollapsible(false);
    charts_ = charts;

    charts->setMinimumHeight(230);
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical_ = vertical;
    vertical->addWidget(heatmap_);
    vertical->addWidget(charts);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setSizes({560, 320});
    vertical->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(controls2);
    layout->addWidget(vertical, 1);
    layout->addLayout(cell_bar);
    setView(View{});
}

void ExplorerPage::connectSignals() {
    connect(doc_, &ui::ScenarioDocument::changed, this, &ExplorerPage::schedule);
    connect(doc_, &ui::ScenarioDocument::viewLoaded, this, &ExplorerPage::loadView);
    for (QComboBox* box : {x_knob_, y_knob_})
        connect(box, &QComboBox::currentIndexChanged, this, [this, box] {
            selected_.reset();
            pinned_.clear();
            // A range belongs to its knob: another knob starts around the current value.
            (box == x_knob_ ? x_range_ : y_range_).reset();
            schedule();
        });
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        updateRelativeBox();
        if (last_) show(*last_);
    });
    connect(relative_, &QCheckBox::toggled, this, [this] {
        if (last_) show(*last_);
    });
    connect(search_, &QCheckBox::toggled, this, &ExplorerPage::schedule);
    connect(steps_, &QSpinBox::valueChanged, this, &ExplorerPage::schedule);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        controller_.cancel();
        progress_->hide();
        cancel_->hide();
        heatmap_->setBusy(false);
        Q_EMIT statusMessage(tr("Evaluation cancelled; showing the last complete result."));
    });
    connect(&controller_, &ui::EvaluationController::started, this, [this] { heatmap_->setBusy(true); });
    connect(&controller_, &ui::EvaluationController::progress, this, [this](quint64, int done, int total) {
        // Only long grids show progress; short ones finish before it would be readable.
        progress_->setRange(0, total);
        progress_->setValue(done);
        progress_->show();
        cancel_->show();
    });
    connect(&controller_, &ui::EvaluationController::finished, this, &ExplorerPage::show);
    connect(heatmap_, &ui::HeatmapWidget::cellClicked, this, &ExplorerPage::selectCell);
    connect(heatmap_, &ui::HeatmapWidget::cellPinned, this, &ExplorerPage::pinCell);
    connect(apply_, &QPushButton::clicked, this, &ExplorerPage::applySelectedCell);
    connect(clear_pins_, &QPushButton::clicked, this, [this] {
        pinned_.clear();
        updateCharts();
    });
}

ExplorerPage::View ExplorerPage::view() const {
    View v;
    v.x = static_cast<Knob>(x_knob_->currentData().toInt());
    v.y = static_cast<Knob>(y_knob_->currentData().toInt());
    v.metric = static_cast<ui::Metric>(metric_->currentData().toInt());
    v.search = search_->isChecked();
    v.steps = steps_->value();
    v.relative = relative_->isChecked();
    v.x_range = x_range_;
    v.y_range = y_range_;
    return v;
}

void ExplorerPage::setView(const View& v) {
    const QSignalBlocker bx(x_knob_), by(y_knob_), bm(metric_), bs(search_), bt(steps_), br(relative_);
    x_knob_->setCurrentIndex(std::max(0, x_knob_->findData(static_cast<int>(v.x))));
    y_knob_->setCurrentIndex(std::max(0, y_knob_->findData(static_cast<int>(v.y))));
    metric_->setCurrentIndex(std::max(0, metric_->findData(static_cast<int>(v.metric))));
    search_->setChecked(v.search);
    steps_->setValue(v.steps | 1);
    relative_->setChecked(v.relative);
    x_range_ = v.x_range;
    y_range_ = v.y_range;
    updateRelativeBox();
}

void ExplorerPage::schedule() {
    const View v = view();
    const Config& c = doc_->config();
    // Knobs of the other workload (a transformer's layers on a DLRM, a DLRM's tables on a
    // transformer) would draw flat maps: they are offered only for their own workload.
    for (QComboBox* box : {x_knob_, y_knob_})
        if (auto* model = qobject_cast<QStandardItemModel*>(box->model()))
            for (int i = 0; i < box->count(); ++i)
                if (QStandardItem* item = model->item(i))
                    item->setEnabled(knob_for_workload(static_cast<Knob>(box->itemData(i).toInt()), c.workload));
    controller_.request(c, ui::sweep_around(c, v.x, v.y, v.steps, v.search, v.x_range, v.y_range), v.metric,
                        doc_->scenario().software_info.name, doc_->scenario().cost);
    syncView();
}

void ExplorerPage::syncView() {
    ExplorerView v = doc_->view().value_or(ExplorerView{});
    const View now = view();
    v.x = std::string(knob_info(now.x).id);
    v.y = std::string(knob_info(now.y).id);
    v.metric = ui::metric_info(now.metric).id;
    v.search = now.search;
    v.steps = now.steps;
    v.relative = now.relative;
    const auto to_array = [](const std::optional<ui::AxisRange>& r) -> std::optional<std::array<double, 2>> {
        if (!r) return std::nullopt;
        return std::array<double, 2>{r->from, r->to};
    };
    v.x_range = to_array(now.x_range);
    v.y_range = to_array(now.y_range);
    v.pins = pending_pins_;
    if (pending_pins_.empty() && shown_spec_) {
        for (const ui::CellIndex& p : pinned_) {
            const double x = shown_spec_->x.values.at(static_cast<std::size_t>(p.ix));
            const double y = shown_spec_->y ? shown_spec_->y->values.at(static_cast<std::size_t>(p.iy)) : 0.0;
            v.pins.push_back({x, y});
        }
    }
    doc_->setView(v);
}

void ExplorerPage::loadView() {
    const std::optional<ExplorerView>& saved = doc_->view();
    if (!saved) return;
    View v = view();
    // The reader checked the ids; an id this build does not know keeps the axis as it is.
    if (const auto k = knob_from_id(saved->x)) v.x = *k;
    if (const auto k = knob_from_id(saved->y)) v.y = *k;
    for (const ui::MetricInfo& m : ui::all_metrics())
        if (saved->metric == m.id) v.metric = m.metric;
    v.search = saved->search;
    v.steps = saved->steps;
    v.relative = saved->relative;
    // A range this knob cannot take (a file edited by hand) is dropped with a message.
    const auto range_of = [this](const std::optional<std::array<double, 2>>& a, Knob k) -> std::optional<ui::AxisRange> {
        if (!a) return std::nullopt;
        const ui::AxisRange r{(*a)[0], (*a)[1]};
        if (const std::string why = ui::range_problem(k, r); !why.empty()) {
            Q_EMIT statusMessage(tr("Axis range ignored: %1").arg(QString::fromStdString(why)));
            return std::nullopt;
        }
        return r;
    };
    v.x_range = range_of(saved->x_range, v.x);
    v.y_range = range_of(saved->y_range, v.y);
    setView(v);
    selected_.reset();
    pinned_.clear();
    pending_pins_ = saved->pins;
    schedule();
}

void ExplorerPage::show(const ui::Evaluation& e) {
    // Selection and pins survive a new evaluation only on the same grid.
    const bool same_grid = shown_spec_ && shown_spec_->x.values == e.spec.x.values &&
                           (shown_spec_->y.has_value() == e.spec.y.has_value()) &&
                           (!e.spec.y || shown_spec_->y->values == e.spec.y->values);
    if (!same_grid) {
        selected_.reset();
        pinned_.clear();
    }
    if (!pending_pins_.empty()) {
        // A loaded view's pins, on the grid that holds their values (cells are listed by value,
        // which a file keeps only to its printed digits).
        const auto index_of = [](const std::vector<double>& values, double v) {
            for (std::size_t i = 0; i < values.size(); ++i)
                if (std::abs(values[i] - v) <= 1e-9 * std::max(1.0, std::abs(v))) return static_cast<int>(i);
            return -1;
        };
        pinned_.clear();
        for (const auto& p : pending_pins_) {
            const int ix = index_of(e.spec.x.values, p[0]);
            const int iy = e.spec.y ? index_of(e.spec.y->values, p[1]) : 0;
            if (ix >= 0 && iy >= 0 && pinned_.size() < 4) pinned_.push_back({ix, iy});
        }
        pending_pins_.clear();
    }
    shown_spec_ = e.spec;
    progress_->hide();
    cancel_->hide();
    heatmap_->setBusy(false);

    const View v = view();
    // The worker made the heatmap data for the metric of the request; another metric chosen since
    // is computed here.
    const ui::HeatmapCost priced{e.config, e.cost};
    ui::HeatmapData map =
        e.metric == v.metric ? e.heatmap : ui::make_heatmap_data(e.spec, e.grid, v.metric, ui::cell_of(e.spec, e.config), &priced);
    map.title_suffix = e.spec.search ? tr("best strategy per cell") : tr("strategy as in the form");
    if (v.relative) ui::make_relative(map);  // a family map keeps its families
    updateRelativeBox();
    heatmap_->setData(std::move(map));
    heatmap_->setSelectedCell(selected_);
    updateCharts();

    QString status;
    // The time with how far to trust it (issue 40), the MFU flagged above every published run.
    const QString time = currentTimeText(e);
    const QString mfu =
        QString::number(100 * e.current.mfu, 'f', 1) + (e.band.mfu_above_published(e.current.mfu) ? QStringLiteral(" \u26A0") : QString());
    if (e.current.feasible)
        status = e.config.workload == Workload::dlrm
                     ? tr("%1: %2 per iteration, MFU %3 %, %4 samples/s")
                           .arg(QString::fromStdString(format_strategy(e.config.strategy, e.config.workload)), time, mfu,
                                QString::number(e.current.tokens_per_s, 'f', 0))
                     // MFU as Megatron counts it (every attention score), then counting the causal half the kernels compute.
                     : tr("%1: %2 per iteration, MFU %3 % (causal %4 %), %5 tokens/s")
                           .arg(QString::fromStdString(format_strategy(e.config.strategy, e.config.workload)), time, mfu,
                                QString::number(100 * e.current.mfu_causal, 'f', 1), QString::number(e.current.tokens_per_s, 'f', 0));
    else
        status = tr("%1: infeasible — %2")
                     .arg(QString::fromStdString(format_strategy(e.config.strategy, e.config.workload)),
                          QString::fromStdString(explain(e.current)));
    std::uint64_t configurations = 0;
    for (const SweepCell& cell : e.grid.cells) configurations += cell.evaluated;
    status += tr("   |   %1 × %2 grid, %3 configurations in %4 ms")
                  .arg(e.grid.nx)
                  .arg(e.grid.ny)
                  .arg(QLocale().toString(static_cast<qulonglong>(configurations)))
                  .arg(e.elapsed_ms, 0, 'f', 0);
    Q_EMIT statusMessage(status);
    Q_EMIT evaluated();
}

QString ExplorerPage::currentTimeText(const ui::Evaluation& e) const {
    return e.band.validated() ? tr("%1 (likely %2)").arg(ui::format_seconds(e.current.iteration_s), ui::trust_range_text(e.band))
                              : tr("%1 (not validated)").arg(ui::format_seconds(e.current.iteration_s));
}

Config ExplorerPage::cellConfig(ui::CellIndex cell) const {
    const ui::Evaluation& e = *last_;
    Config c = e.config;
    set_knob(c, e.spec.x.knob, e.spec.x.values[static_cast<std::size_t>(cell.ix)]);
    if (e.spec.y) set_knob(c, e.spec.y->knob, e.spec.y->values[static_cast<std::size_t>(cell.iy)]);
    c.strategy = e.grid.at(cell.ix, cell.iy).strategy;
    return c;
}

QString ExplorerPage::cellLabel(ui::CellIndex cell) const {
    const ui::Evaluation& e = *last_;
    QString label = knob_value_label(knob_info(e.spec.x.knob), e.spec.x.values[static_cast<std::size_t>(cell.ix)]);
    if (e.spec.y)
        label += QStringLiteral(", ") + knob_value_label(knob_info(e.spec.y->knob), e.spec.y->values[static_cast<std::size_t>(cell.iy)]);
    return label;
}

QString ExplorerPage::cellValues(ui::CellIndex cell) const {
    const ui::Evaluation& e = *last_;
    const auto value = [](const KnobInfo& k, double v) -> QString {
        if (k.unit.empty()) return QString::fromUtf8(k.id.data(), qsizetype(k.id.size())) + QLatin1Char('=') + value_text(v);
        return value_text(v) + QLatin1Char(' ') + QString::fromUtf8(k.unit.data(), qsizetype(k.unit.size()));
    };
    QString text = value(knob_info(e.spec.x.knob), e.spec.x.values[static_cast<std::size_t>(cell.ix)]);
    if (e.spec.y) text += QStringLiteral(" × ") + value(knob_info(e.spec.y->knob), e.spec.y->values[static_cast<std::size_t>(cell.iy)]);
    return text;
}

QString ExplorerPage::cellWhy(ui::CellIndex cell) const {
    const Result& r = last_->grid.at(cell.ix, cell.iy).result;
    // "Most often: tp does not divide the heads" is not why nothing fits: name the binding limit.
    if (r.reason == Infeasible::no_feasible_strategy) {
        const std::string why = explain_no_fit(cellConfig(cell));
        return QString::fromStdString(why.empty() ? explain(r) : why);
    }
    return QString::fromStdString(explain_infeasible(cellConfig(cell), r).text()).replace(QLatin1Char('\n'), QStringLiteral("; "));
}

void ExplorerPage::placeControls(bool two_rows) {
    // The first row keeps X and Y with their labels; the rest goes after them or onto the second.
    while (controls_->count() > 4) delete controls_->takeAt(4);  // items only: the widgets stay
    while (controls2_->count() > 0) delete controls2_->takeAt(0);
    QHBoxLayout* rest = two_rows ? controls2_ : controls_;
    for (QWidget* w : {static_cast<QWidget*>(metric_label_), static_cast<QWidget*>(metric_), static_cast<QWidget*>(relative_),
                       static_cast<QWidget*>(steps_), static_cast<QWidget*>(search_)})
        rest->addWidget(w);
    rest->addStretch(0);
    rest->addWidget(progress_);
    rest->addWidget(cancel_);
    controls_->setStretchFactor(x_knob_, 3);  // knob names are longer than metric names
    controls_->setStretchFactor(y_knob_, 3);
    rest->setStretchFactor(metric_, 1);
}

void ExplorerPage::setPresentation(bool on) {
    placeControls(on);
    presentation_ = on;
    presentation_split_ = -1;
    if (on) {
        normal_sizes_ = vertical_->sizes();
        normal_chart_sizes_ = charts_->sizes();
        applyPresentationSplit();
    } else if (!normal_sizes_.isEmpty()) {
        vertical_->setSizes(normal_sizes_);
        charts_->setSizes(normal_chart_sizes_);
    }
    updateCharts();  // the summary names the current strategy in presentation mode
}

void ExplorerPage::applyPresentationSplit() {
    if (!presentation_) return;
    // The zoomed heatmap needs height for its title, axis titles and ticks, and the zoomed
    // charts for theirs and their bars: half each with the current configuration's bar alone,
    // 3/5 for the charts with a selected or pinned cell (up to six bars; the memory chart's title
    // then names the selected cell, on two lines). Set when the bar count crosses that line, so
    // that a splitter the user moved stays where it is otherwise.
    const int split = shown_bars_.size() <= 1 ? 50 : 40;
    if (split == presentation_split_) return;
    presentation_split_ = split;
    const QList<int> now = vertical_->sizes();
    const int total = now.value(0) + now.value(1);
    // The charts keep at least the height they have on the 1920x1080 reference slide, in their
    // own (unzoomed) pixels: title, one bar, the axis with its title and two legend rows. On a
    // 720-pixel-high screen half the page is less than that once the tabs and controls have theirs.
    constexpr double reference_chart_height = 190;
    const int charts = std::max(total - total * split / 100, static_cast<int>(std::ceil(reference_chart_height * ui::chart_zoom())));
    vertical_->setSizes({std::max(0, total - charts), std::min(total, charts)});
    // Below the reference slide (a 1280x720 projector) the charts are short: side by side, half
    // each, the memory chart's seven legend entries take two rows, not three. On the reference
    // the breakdown keeps its wider share, for the current strategy's name beside its bar.
    const QList<int> across = charts_->sizes();
    const int width = across.value(0) + across.value(1);
    const bool small = ui::chart_zoom() < 0.95 * ui::presentation_chart_zoom;
    const int breakdown =
        small ? width - width / 2
              : normal_chart_sizes_.value(0) * width / std::max(1, normal_chart_sizes_.value(0) + normal_chart_sizes_.value(1));
    charts_->setSizes({breakdown, width - breakdown});
}

void ExplorerPage::presentationResized() {
    if (!presentation_) return;
    presentation_split_ = -1;
    applyPresentationSplit();
}

void ExplorerPage::updateCharts() {
    if (!last_) return;
    const ui::Evaluation& e = *last_;
    std::vector<ui::BreakdownBar> bars;
    // Short labels for rows too short for the whole one (presentation mode with pins): the
    // heatmap's markers say which cell is which.
    if (e.current.iteration_s > 0)
        bars.push_back({tr("Current: %1").arg(QString::fromStdString(format_strategy(e.config.strategy, e.config.workload))),
                        e.current.time, tr("Current")});
    const Result* memory_of = &e.current;
    QString summary;
    QString memory_title = tr("Memory per GPU — current");
    if (selected_) {
        const SweepCell& cell = e.grid.at(selected_->ix, selected_->iy);
        if (cell.result.iteration_s > 0) bars.push_back({tr("Selected %1").arg(cellLabel(*selected_)), cell.result.time, tr("Selected")});
        if (cell.result.hbm.capacity_bytes > 0) {
            memory_of = &cell.result;
            memory_title = tr("Memory per GPU — selected %1").arg(cellValues(*selected_));
        }
        summary = tr("Selected %1: %2")
                      .arg(cellLabel(*selected_), cell.result.feasible
                                                      ? QString::fromStdString(format_strategy(cell.strategy, e.config.workload)) +
                                                            QStringLiteral(", ") + ui::format_seconds(cell.result.iteration_s)
                                                      : cellWhy(*selected_));
    } else {
        summary = tr("Click a cell to compare it with the current configuration; right-click to pin it.");
    }
    // In presentation mode the status bar (which names the current strategy) is hidden, and the
    // breakdown's rows may be too short for more than "Current" (a selected or pinned cell, or a
    // long strategy such as Mixtral's): the line under the charts names the current strategy
    // before the selected cell's (one paragraph: a line of its own would take a line's height
    // from the charts), or instead of the hint, which moves to the tooltip.
    summary_->setToolTip({});
    if (presentation_ && e.current.iteration_s > 0) {
        const QString strategy = QString::fromStdString(format_strategy(e.config.strategy, e.config.workload));
        const QString current = tr("Current: %1, %2").arg(strategy, currentTimeText(e));
        if (selected_) {
            // Both on one line (two would take a line's height from the charts): the current time's
            // band moves to the tooltip.
            summary_->setToolTip(current);
            summary = tr("Current: %1, %2").arg(strategy, ui::format_seconds(e.current.iteration_s)) + QStringLiteral(" · ") + summary;
        } else {
            summary_->setToolTip(summary);
            summary = current;
        }
    }
    summary_->setText(summary);
    for (std::size_t i = 0; i < pinned_.size(); ++i) {  // numbered like their markers on the heatmap
        const ui::CellIndex& p = pinned_[i];
        const SweepCell& cell = e.grid.at(p.ix, p.iy);
        if (cell.result.iteration_s > 0)
            bars.push_back({tr("Pin %1: %2").arg(i + 1).arg(cellLabel(p)), cell.result.time, tr("Pin %1").arg(i + 1)});
    }
    breakdown_message_.clear();
    if (bars.empty()) {
        // Say why instead of "No data": the binding limit with its numbers, the nearest change.
        breakdown_message_ =
            tr("Current configuration cannot run: %1").arg(QString::fromStdString(explain_infeasible(e.config, e.current).text()));
        if (selected_ && !e.grid.at(selected_->ix, selected_->iy).result.feasible)
            breakdown_message_ +=
                tr("\nSelected %1 cannot run either: %2")
                    .arg(cellLabel(*selected_), QString::fromStdString(explain(e.grid.at(selected_->ix, selected_->iy).result)));
        if (!breakdown_message_.contains(QStringLiteral("Find Best Strategy")))
            breakdown_message_ += tr("\nFind Best Strategy (Ctrl+B) searches every strategy.");
    }
    breakdown_->setEmptyMessage(breakdown_message_);
    breakdown_->setTitle(tr("Iteration time breakdown"));
    breakdown_->setBars(bars);
    shown_bars_ = std::move(bars);
    applyPresentationSplit();
    std::vector<ui::MemoryBar> tiers{{tr("HBM"), memory_of->hbm}};
    if (memory_of->expanded.capacity_bytes > 0 || memory_of->expanded.used_bytes() > 0)
        tiers.push_back({tr("Expanded"), memory_of->expanded});
    memory_->setTitle(memory_title);
    memory_->setTiers(tiers);
    shown_tiers_ = std::move(tiers);
    apply_->setEnabled(selected_.has_value() && e.grid.at(selected_->ix, selected_->iy).result.feasible);
    clear_pins_->setEnabled(!pinned_.empty());
    heatmap_->setPinnedCells(pinned_);
    syncView();
}

namespace {
QString suffix_of(const QString& path) { return QFileInfo(path).suffix().toLower(); }
}  // namespace

QString ExplorerPage::assumptions() const { return QString::fromStdString(assumptions_line(doc_->scenario())); }

QString ExplorerPage::exportHeatmap(const QString& path) const {
    if (!last_) return tr("Nothing to export yet.");
    return ui::export_chart(*heatmap_, path, ui::ExportOptions{QSize(1600, 1000), 192, {}, {}, assumptions()});
}

QString ExplorerPage::exportBreakdown(const QString& path) const {
    if (!last_) return tr("Nothing to export yet.");
    return ui::export_chart(*breakdown_, path, ui::ExportOptions{QSize(1200, 600), 192, {}, {}, assumptions()});
}

const ui::ChartRenderable* ExplorerPage::heatmapChart() const { return heatmap_; }
const ui::ChartRenderable* ExplorerPage::breakdownChart() const { return breakdown_.get(); }
const ui::ChartRenderable* ExplorerPage::memoryChart() const { return memory_.get(); }

int ExplorerPage::stepPinned(int delta) {
    if (pinned_.empty()) return -1;
    const int n = static_cast<int>(pinned_.size());
    const auto it = selected_ ? std::find(pinned_.begin(), pinned_.end(), *selected_) : pinned_.end();
    const int at = it == pinned_.end() ? -1 : static_cast<int>(it - pinned_.begin());
    const int next = at < 0 ? (delta >= 0 ? 0 : n - 1) : ((at + delta) % n + n) % n;
    selectCell(pinned_[static_cast<std::size_t>(next)]);
    return next;
}

void ExplorerPage::editAxisRanges() {
    const View v = view();
    const Config& c = doc_->config();
    // The automatic axes' ends, for a range to start from.
    const auto ends = [&](Knob k) {
        const Axis a = ui::default_axis(k, c, v.steps);
        return std::array<double, 2>{a.values.front(), a.values.back()};
    };
    auto* dialog = new AxisRangeDialog(v.x, v.y, v.x_range, v.y_range, ends(v.x), ends(v.y), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        x_range_ = dialog->xRange();
        y_range_ = dialog->yRange();
        selected_.reset();
        pinned_.clear();
        schedule();
    });
    dialog->open();
}

QString ExplorerPage::exportGrid(const QString& path) const {
    if (!last_) return tr("Nothing to export yet.");
    SweepFile file;
    file.name = doc_->scenario().name;
    file.scenario = doc_->scenario();
    file.scenario.config = last_->config;
    file.spec = last_->spec;
    const QString ext = suffix_of(path);
    std::string text;
    if (ext == QLatin1String("csv"))
        text = sweep_to_csv(file, last_->grid);
    else if (ext == QLatin1String("json"))
        text = sweep_to_json(file, last_->grid);
    else
        return tr("Unknown format \"%1\": use .csv or .json").arg(ext);
    return QString::fromStdString(save_text_atomically(path.toStdString(), text));
}

void ExplorerPage::selectCell(ui::CellIndex cell) {
    if (!last_ || cell.ix < 0 || cell.iy < 0 || cell.ix >= last_->grid.nx || cell.iy >= last_->grid.ny) return;
    selected_ = cell;
    heatmap_->setSelectedCell(cell);
    updateCharts();
}

void ExplorerPage::pinCell(ui::CellIndex cell) {
    if (!last_) return;
    auto it = std::find(pinned_.begin(), pinned_.end(), cell);
    if (it != pinned_.end())
        pinned_.erase(it);
    else if (pinned_.size() < 4)
        pinned_.push_back(cell);
    updateCharts();
}

void ExplorerPage::applySelectedCell() {
    if (!last_ || !selected_) return;
    doc_->setConfig(cellConfig(*selected_), tr("Use cell %1").arg(cellLabel(*selected_)));
}

}  // namespace comet::app
