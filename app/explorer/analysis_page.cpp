#include "analysis_page.hpp"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QTimer>
#include <QSpinBox>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QStyleOptionFrame>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

#include "charts/chart_views.hpp"
#include "comet/report.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"

namespace comet::app {
namespace {

// The price fields, in form order; each edits one member of CostInputs.
struct CostField {
    const char* label;
    const char* suffix;
    double CostInputs::*member;
    double min;
    double max;
    int decimals;
    double step;
    const char* tip;
};

constexpr std::array cost_fields{
    CostField{QT_TRANSLATE_NOOP("AnalysisPage", "GPU-hour price"), "$ ", &CostInputs::price_per_gpu_hour_usd, 0, 1e4, 2, 0.1,
              QT_TRANSLATE_NOOP("AnalysisPage",
                                "Price of one accelerator for one hour (cloud rate). When set, it wins over the purchase price. A design "
                                "on the Compare page may have its own.")},
    CostField{QT_TRANSLATE_NOOP("AnalysisPage", "Purchase price per GPU"), "$ ", &CostInputs::purchase_price_per_gpu_usd, 0, 1e7, 0, 1000,
              QT_TRANSLATE_NOOP("AnalysisPage",
                                "Purchase price of one accelerator (its share of the node), amortised over the lifetime at full use. Used "
                                "when the GPU-hour price is 0.")},
    CostField{QT_TRANSLATE_NOOP("AnalysisPage", "Lifetime"), " years", &CostInputs::lifetime_years, 0.1, 50, 1, 0.5,
              QT_TRANSLATE_NOOP("AnalysisPage", "Amortisation period of the purchase price (8766 h per year).")},
    CostField{QT_TRANSLATE_NOOP("AnalysisPage", "PUE"), "", &CostInputs::pue, 1, 5, 2, 0.05,
              QT_TRANSLATE_NOOP("AnalysisPage", "Data-centre power usage effectiveness: facility power / IT power, at least 1.")},
    CostField{QT_TRANSLATE_NOOP("AnalysisPage", "Electricity"), " $/kWh", &CostInputs::price_per_kwh_usd, 0, 10, 3, 0.01,
              QT_TRANSLATE_NOOP("AnalysisPage", "Price of one kWh; 0 when the GPU-hour price already includes power.")},
};
constexpr int merge_base = 0x434f0000;  // undo merge ids of the price fields ("CO")

QString tokens_text(double t) { return t > 0 ? QString::number(t, 'g', 4) : QString(); }

// A line edit at least as wide as its placeholder ("e.g. 1e12 (empty = none)"), at its current
// font: QLineEdit's own hint is 17 "x" wide whatever the placeholder, and a placeholder wider than
// the field is elided (Mixtral's scenario has no token budget, so the placeholder shows).
class PlaceholderLineEdit final : public QLineEdit {
public:
    using QLineEdit::QLineEdit;
    [[nodiscard]] QSize sizeHint() const override { return fitted(QLineEdit::sizeHint()); }
    [[nodiscard]] QSize minimumSizeHint() const override { return fitted(QLineEdit::minimumSizeHint()); }

private:
    [[nodiscard]] QSize fitted(QSize hint) const {
        if (placeholderText().isEmpty()) return hint;
        // What QLineEdit draws the text in: the frame, 2 px each side, the text margins.
        constexpr int horizontal_margin = 2;
        const QMargins m = textMargins();
        const int text = static_cast<int>(std::ceil(QFontMetricsF(font()).horizontalAdvance(placeholderText())));
        QStyleOptionFrame opt;
        initStyleOption(&opt);
        const QSize need = style()->sizeFromContents(QStyle::CT_LineEdit, &opt,
                                                     QSize(text + 2 * horizontal_margin + m.left() + m.right() + 1, hint.height()), this);
        return {std::max(hint.width(), need.width()), hint.height()};
    }
};

}  // namespace

std::vector<int> parse_node_list(const QString& text, QString& problem) {
    std::vector<int> out;
    problem.clear();
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > 10'000'000) {
            problem =
                QObject::tr("Pareto node count \"%1\": must be an integer from 1 to 10000000, separated by commas").arg(part.trimmed());
            return {};
        }
        out.push_back(n);
    }
    if (out.size() > 64) {
        problem = QObject::tr("Pareto node counts: at most 64, got %1").arg(out.size());
        return {};
    }
    return out;
}

AnalysisPage::AnalysisPage(ui::ScenarioDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    buildLayout();
    analyse_ = new ui::WhileShown(this, [this] { analyse(); });
    connect(doc_, &ui::ScenarioDocument::changed, this, [this] {
        showInputs();
        schedule();
    });
    showInputs();
    schedule();
}

AnalysisPage::~AnalysisPage() = default;

void AnalysisPage::buildLayout() {
    auto* prices = new QGroupBox(tr("Prices (saved with the scenario)"), this);
    auto* form = new QFormLayout(prices);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);  // narrow (1280x720) or zoomed: fields below their labels
    for (std::size_t i = 0; i < cost_fields.size(); ++i) {
        const CostField& f = cost_fields[i];
        auto* box = new QDoubleSpinBox(prices);
        box->setRange(f.min, f.max);
        box->setDecimals(f.decimals);
        box->setSingleStep(f.step);
        // Money reads "$ 1.80"; units read "4.0 years".
        if (f.suffix[0] == '$')
            box->setPrefix(QString::fromLatin1(f.suffix));
        else
            box->setSuffix(tr(f.suffix));
        box->setKeyboardTracking(false);
        box->setToolTip(tr(f.tip));
        box->setAccessibleName(tr(f.label));
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, i](double v) { editCost(static_cast<int>(i), v); });
        form->addRow(tr(f.label) + QLatin1Char(':'), box);
        cost_fields_.push_back(box);
    }
    tokens_ = new PlaceholderLineEdit(prices);
    tokens_->setPlaceholderText(tr("e.g. 1e12 (empty = none)"));
    tokens_->setToolTip(
        tr("Tokens of the whole training run, for the time, cost and energy to train. Empty or 0 = per-million-token figures only."));
    connect(tokens_, &QLineEdit::editingFinished, this, [this] {
        const QString t = tokens_->text().trimmed();
        bool ok = t.isEmpty();
        const double v = ok ? 0.0 : t.toDouble(&ok);
        if (!ok || !std::isfinite(v) || v < 0 || v > 1e18) {
            Q_EMIT statusMessage(tr("Tokens to train = \"%1\": must be a number from 0 to 1e18, e.g. 1e12").arg(t));
            showInputs();
            return;
        }
        if (v == doc_->scenario().cost.tokens_to_train) return;
        Scenario s = doc_->scenario();
        s.cost.tokens_to_train = v;
        doc_->setScenario(s, tr("Change tokens to train"));
    });
    form->addRow(tr("Tokens to train:"), tokens_);
    tokens_form_ = form;
    power_ = new QLabel(prices);
    power_->setToolTip(tr("The node's power at load, from the node form (Node power)."));
    form->addRow(tr("Node power:"), power_);

    auto* view = new QGroupBox(tr("Analysis"), this);
    auto* vform = new QFormLayout(view);
    vform->setRowWrapPolicy(QFormLayout::WrapLongRows);
    fraction_ = new QSpinBox(view);
    fraction_->setRange(1, 95);
    fraction_->setValue(10);
    fraction_->setPrefix(QStringLiteral("± "));
    fraction_->setSuffix(QStringLiteral(" %"));
    fraction_->setKeyboardTracking(false);
    fraction_->setToolTip(tr("How much each resource moves, down and up, in the tornado chart"));
    connect(fraction_, &QSpinBox::valueChanged, this, &AnalysisPage::schedule);
    vform->addRow(tr("Resource change:"), fraction_);
    nodes_ = new PlaceholderLineEdit(view);
    nodes_->setPlaceholderText(tr("e.g. 96, 192, 384"));
    nodes_->setToolTip(
        tr("Node counts for the Pareto chart: each node of the Compare page's designs (or the scenario's) at each count, with its best "
           "strategy; empty = the designs as they are"));
    connect(nodes_, &QLineEdit::editingFinished, this, [this] {
        QString problem;
        std::vector<int> n = parse_node_list(nodes_->text(), problem);
        if (!problem.isEmpty()) {
            Q_EMIT statusMessage(problem);
            return;
        }
        if (n == pareto_nodes_) return;
        pareto_nodes_ = std::move(n);
        schedule();
    });
    vform->addRow(tr("Pareto node counts:"), nodes_);

    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAccessibleName(tr("Cost and energy"));

    auto* left_inner = new QWidget(this);
    auto* left = new QVBoxLayout(left_inner);
    left->addWidget(prices);
    left->addWidget(view);
    left->addWidget(summary_);
    left->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(left_inner);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(340);

    tornado_ = ui::make_tornado_chart(this);
    pareto_ = ui::make_pareto_chart(this);
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts_ = charts;
    scroll_ = scroll;
    charts->addWidget(tornado_->widget());
    charts->addWidget(pareto_->widget());
    charts->setChildrenCollapsible(false);
    // The Pareto chart's two-line title, its axes with their titles and the legend need 240 px at
    // the chart's own text size; presentation mode's zoom multiplies it (the column then scrolls).
    ui::set_chart_height_floor(pareto_->widget(), 240);

    // The tornado asks for rows tall enough for its wrapped resource labels: when both charts
    // need more than the page has, the chart column scrolls.
    auto* chart_scroll = new QScrollArea(this);
    chart_scroll->setWidget(charts);
    chart_scroll->setWidgetResizable(true);
    chart_scroll->setFrameShape(QFrame::NoFrame);
    chart_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(chart_scroll);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void AnalysisPage::setPresentation(bool on) {
    // The prices panel keeps the width its (zoomed) contents need; the charts stay stacked, each
    // as wide as the rest of the page, and scroll when the tornado's rows need more height.
    presentation_ = on;
    const int content = scroll_->widget()->sizeHint().width() + scroll_->verticalScrollBar()->sizeHint().width() + 4;
    scroll_->setMinimumWidth(on ? content : 340);
}

void AnalysisPage::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    // Presentation mode's text follows the screen's height: the prices panel follows its text.
    if (e->type() == QEvent::FontChange && presentation_ && scroll_)
        QTimer::singleShot(0, this, [this] {
            if (presentation_) setPresentation(true);
        });
}

void AnalysisPage::showInputs() {
    const Scenario& s = doc_->scenario();
    for (std::size_t i = 0; i < cost_fields.size(); ++i) {
        QDoubleSpinBox* box = cost_fields_[i];
        const QSignalBlocker block(box);
        box->setValue(s.cost.*cost_fields[i].member);
    }
    if (!tokens_->hasFocus()) tokens_->setText(tokens_text(s.cost.tokens_to_train));
    // A DLRM's budget counts samples (the same cost field: what the iterations train on).
    if (auto* label = qobject_cast<QLabel*>(tokens_form_->labelForField(tokens_)))
        label->setText(s.config.workload == Workload::dlrm ? tr("Samples to train:") : tr("Tokens to train:"));
    power_->setText(s.config.node.power_kw > 0 ? tr("%1 kW per node").arg(s.config.node.power_kw)
                                               : tr("unknown (0): no energy counted; set Node power in the node form"));
}

void AnalysisPage::editCost(int field, double value) {
    const CostField& f = cost_fields[static_cast<std::size_t>(field)];
    Scenario s = doc_->scenario();
    if (s.cost.*f.member == value) return;
    s.cost.*f.member = value;
    const std::vector<FieldError> errors = check_cost_inputs(s.cost);
    if (!errors.empty()) {  // the spin box ranges keep inside the rules; this guards a change of them
        Q_EMIT statusMessage(QString::fromStdString(errors.front().message()));
        showInputs();
        return;
    }
    doc_->setScenario(s, tr("Change %1").arg(tr(f.label)), merge_base + field);
}

void AnalysisPage::setFraction(double fraction) { fraction_->setValue(static_cast<int>(std::lround(100 * fraction))); }
double AnalysisPage::fraction() const { return fraction_->value() / 100.0; }

void AnalysisPage::setParetoNodes(const QString& text) {
    nodes_->setText(text);
    QString problem;
    std::vector<int> n = parse_node_list(text, problem);
    if (problem.isEmpty() && n != pareto_nodes_) {
        pareto_nodes_ = std::move(n);
        schedule();
    }
}

QString AnalysisPage::paretoNodesText() const { return nodes_->text(); }

void AnalysisPage::schedule() { analyse_->request(); }

void AnalysisPage::analyse() {
    ui::ReportOptions options;
    options.fraction = fraction();
    options.pareto_nodes = pareto_nodes_;
    options.with_grid = false;
    options.with_comparison = false;
    ui::run_latest<ui::ReportData>(
        job_, [s = doc_->scenario(), options](const std::atomic<bool>& cancel) { return ui::compute_report_data(s, options, &cancel); },
        [this](ui::ReportData a) {
            if (!a.cancelled) show(std::move(a));
        });
}

void AnalysisPage::waitForResults() {
    analyse_->flush();
    while (job_.busy()) {
        job_.wait();
        QCoreApplication::processEvents();
    }
}

void AnalysisPage::show(ui::ReportData a) {
    shown_ = std::move(a);
    tornado_->setBars(shown_->tornado, shown_->options.fraction);
    pareto_->setPoints(shown_->pareto);
    const bool dlrm = shown_->scenario.config.workload == Workload::dlrm;
    pareto_->setTitle(shown_->scenario.cost.tokens_to_train > 0
                          ? (dlrm ? tr("Time and cost to train %1 samples") : tr("Time and cost to train %1 tokens"))
                                .arg(tokens_text(doc_->scenario().cost.tokens_to_train))
                          : (dlrm ? tr("Time and cost per million samples (no sample budget)")
                                  : tr("Time and cost per million tokens (no token budget)")));
    summary_->setText(costSummaryHtml());
    Q_EMIT analysed();
}

QString AnalysisPage::costSummaryHtml() const {
    if (!shown_) return tr("Computing…");
    const ui::ReportData& a = *shown_;
    auto column = [](const Result& r, const CostReport& c) -> QStringList {
        if (!r.feasible || !c.valid) return {QObject::tr("cannot run"), {}, {}, {}, {}, {}, {}};
        return {ui::format_seconds(r.iteration_s),
                ui::format_money(c.cost_per_iteration_usd),
                ui::format_energy(c.energy_per_iteration_kwh),
                ui::format_money(c.cost_per_million_tokens_usd),
                ui::format_energy(c.energy_per_million_tokens_kwh),
                c.time_to_train_s > 0 ? ui::format_duration(c.time_to_train_s) : QStringLiteral("–"),
                c.time_to_train_s > 0
                    ? ui::format_money(c.cost_to_train_usd) + QStringLiteral(", ") + ui::format_energy(c.energy_to_train_kwh)
                    : QStringLiteral("–")};
    };
    const QStringList given = column(a.current, a.cost);
    const QStringList best = a.best ? column(a.best->result, a.best_cost) : QStringList{};
    const bool samples = shown_ && shown_->scenario.config.workload == Workload::dlrm;  // a DLRM trains on samples
    const QStringList rows = {tr("Iteration time"),
                              tr("Cost per iteration"),
                              tr("Energy per iteration"),
                              samples ? tr("Cost per M samples") : tr("Cost per M tokens"),
                              samples ? tr("Energy per M samples") : tr("Energy per M tokens"),
                              tr("Time to train"),
                              tr("Cost, energy to train")};
    QString html =
        QStringLiteral(
            "<b>%1</b><table cellspacing='0' cellpadding='3'><tr><th></th><th align='right'>%2</th><th align='right'>%3</th></tr>")
            .arg(tr("Cost and energy"), tr("as given"), tr("best strategy"));
    for (int i = 0; i < rows.size(); ++i)
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                    .arg(rows[i], given.value(i), best.value(i));
    html += QStringLiteral("</table>");
    const CostReport& c = a.best_cost.valid ? a.best_cost : a.cost;
    if (c.valid)
        html += QStringLiteral("<p>") +
                tr("%1 GPUs on %2 nodes at %3 per GPU-hour%4.")
                    .arg(QString::number(c.gpus), QString::number(c.nodes_powered),
                         QString::fromStdString(format_hourly_price(c.gpu_hour_price_usd)),
                         c.amortised ? tr(" (purchase price amortised)") : QString()) +
                QStringLiteral("</p>");
    if (a.best && a.best->result.feasible)
        html += QStringLiteral("<p>") +
                tr("Best strategy: %1")
                    .arg(QString::fromStdString(format_strategy(a.best->strategy, doc_->config().workload)).toHtmlEscaped()) +
                QStringLiteral("</p>");
    // Which software change buys most (issue 38): each switch the software lacks, searched again.
    if (!a.software.empty()) {
        html += QStringLiteral("<b>%1</b><table cellspacing='0' cellpadding='3'>").arg(tr("Which software change buys most"));
        for (const SoftwareChange& sc : a.software) {
            const QString time = !sc.feasible ? tr("cannot run") : ui::format_seconds(sc.time_s);
            const QString change =
                sc.feasible && sc.base_feasible && sc.base_time_s > 0 ? ui::signed_percent(sc.time_s / sc.base_time_s - 1, 1) : QString();
            html += QStringLiteral("<tr><td title='%1'>%2</td><td align='right'>%3</td><td align='right'>%4</td></tr>")
                        .arg(QString::fromStdString(sc.field + ": " + sc.from + " \u2192 " + sc.to).toHtmlEscaped(),
                             QString::fromStdString(sc.what).toHtmlEscaped(), time, change);
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

const ui::ChartRenderable* AnalysisPage::tornadoChart() const { return tornado_.get(); }
const ui::ChartRenderable* AnalysisPage::paretoChart() const { return pareto_.get(); }

}  // namespace comet::app
