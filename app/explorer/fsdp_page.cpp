#include "fsdp_page.hpp"

#include <QCoreApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/chart_model.hpp"
#include "charts/chart_views.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"

namespace comet::app {
namespace {

const QColor hidden_text{0x00, 0x7A, 0x59};   // the chart's green, darker for text
const QColor exposed_text{0xB0, 0x4A, 0x00};  // the chart's vermillion, darker for text
constexpr int max_table_rows = 12;
constexpr int min_table_rows = 4;

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
    auto* it = new QTableWidgetItem(text);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    it->setTextAlignment(align);
    return it;
}

bool runs(const FsdpPoint& p) { return p.reason == Infeasible::none; }

// "dp 32–256 (256–2048 GPUs)" for a run of consecutive points, else "dp 32, 128".
QString sizes_text(const std::vector<const FsdpPoint*>& points, bool consecutive) {
    if (points.size() > 1 && consecutive)
        return QObject::tr("dp %1–%2 (%3–%4 GPUs)")
            .arg(points.front()->dp)
            .arg(points.back()->dp)
            .arg(points.front()->gpus)
            .arg(points.back()->gpus);
    QStringList dps;
    for (const FsdpPoint* p : points) dps << QString::number(p->dp);
    return QObject::tr("dp %1").arg(dps.join(QStringLiteral(", ")));
}

}  // namespace

FsdpPage::FsdpPage(ui::ScenarioDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    buildLayout();
    balance_ = new ui::WhileShown(this, [this] { computeBalance(); });
    connect(doc_, &ui::ScenarioDocument::changed, this, &FsdpPage::schedule);
    schedule();
}

FsdpPage::~FsdpPage() = default;

void FsdpPage::buildLayout() {
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    intro_->setTextFormat(Qt::RichText);
    summary_ = new QLabel(tr("Computing…"), this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAccessibleName(tr("FSDP verdict"));

    chart_ = ui::make_fsdp_chart(this);
    table_ = new QTableWidget(0, col_count, this);
    table_->setHorizontalHeaderLabels({tr("dp"), tr("GPUs"), tr("Tokens/GPU needed"), tr("Tokens/GPU HBM allows"), tr("Max microbatch"),
                                       tr("FSDP traffic per microbatch"), tr("Verdict")});
    const QStringList tips{tr("Data-parallel ranks (the FSDP group is dp × cp, or the ZeRO sharding group)"),
                           tr("tp × cp × pp × dp"),
                           tr("Tokens per GPU per microbatch whose compute takes as long as the microbatch's FSDP traffic"),
                           tr("The most tokens per GPU per microbatch whose activations fit in HBM beside the sharded states"),
                           tr("Sequences per microbatch at that many tokens"),
                           tr("Weight all-gathers (forward, backward, recomputation) and gradient reduce-scatter of one microbatch"),
                           tr("hidden: HBM allows at least the tokens needed; exposed: it does not")};
    for (int c = 0; c < col_count; ++c) table_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Every column as wide as its contents (the verdict "no sequence fits in HBM" too): on a narrow
    // page with presentation-size text the table scrolls sideways rather than cut it.
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);

    // The chart's axes, title and legend need 240 px at the chart's own text size: more when
    // presentation mode zooms the charts (the table then scrolls).
    ui::set_chart_height_floor(chart_->widget(), 240);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(summary_);
    layout->addWidget(chart_->widget(), 1);
    layout->addWidget(table_);
}

void FsdpPage::schedule() { balance_->request(); }

void FsdpPage::computeBalance() {
    ui::run_latest<Balance>(
        job_,
        [c = doc_->config()](const std::atomic<bool>&) {
            Balance b{c, {}, {}};
            if (c.workload == Workload::dlrm) return b;  // a DLRM has no ZeRO-3 to balance
            b.dps = fsdp_default_dps(c);
            b.points = fsdp_balance(c, b.dps);
            return b;
        },
        [this](Balance b) { show(std::move(b)); });
}

void FsdpPage::waitForResults() {
    balance_->flush();
    while (job_.busy()) {
        job_.wait();
        QCoreApplication::processEvents();
    }
}

void FsdpPage::show(Balance b) {
    shown_ = std::move(b);
    const Strategy& s = shown_->config.strategy;
    if (shown_->config.workload == Workload::dlrm) {
        intro_->setText(
            tr("The FSDP balance weighs a transformer's ZeRO-3 weight gathers against the tokens per GPU HBM "
               "holds. This scenario trains a DLRM: its MLPs are replicated and its tables sharded, so there is no "
               "FSDP traffic to hide. The Explore page's breakdown shows its embedding exchanges."));
        chart_->setPoints({});
        fillTable();
        chart_->widget()->setVisible(false);  // an empty chart would only say "No data"
        table_->setVisible(false);
        summary_->setText(tr("Not applicable to a DLRM."));
        Q_EMIT computed();
        return;
    }
    chart_->widget()->setVisible(true);
    table_->setVisible(true);
    intro_->setText(tr("With ZeRO-3 (FSDP), every microbatch gathers the weights and reduce-scatters the gradients; that "
                       "traffic does not grow with the microbatch, the compute that hides it does. So FSDP is hidden where "
                       "HBM leaves room for at least the tokens per GPU needed. The strategy's tp %1, cp %2, pp %3 stay; dp "
                       "and the cluster size vary (after Wang et al. 2025).")
                        .arg(s.tp)
                        .arg(s.cp)
                        .arg(s.pp));
    chart_->setPoints(shown_->points);
    fillTable();
    summary_->setText(summaryText());
    Q_EMIT computed();
}

QString FsdpPage::summaryText() const {
    if (!shown_) return tr("Computing…");
    const std::vector<FsdpPoint>& points = shown_->points;
    if (points.empty()) return tr("No data-parallel sizes to show.");
    std::vector<const FsdpPoint*> running, hidden;
    bool consecutive = true;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (runs(points[i])) running.push_back(&points[i]);
        if (!points[i].hidden()) continue;
        if (!hidden.empty() && hidden.back() != &points[i - 1]) consecutive = false;
        hidden.push_back(&points[i]);
    }
    if (running.empty()) return tr("No data-parallel size can run: %1.").arg(ui::fsdp_verdict(points.front()));
    if (hidden.empty()) {
        const FsdpPoint* best = running.front();
        for (const FsdpPoint* p : running)
            if (p->max_tokens_hbm - p->tokens_to_hide > best->max_tokens_hbm - best->tokens_to_hide) best = p;
        return tr("FSDP traffic stays exposed at every size shown: at best (dp %1) HBM allows %2 tokens per GPU, %3 are needed.")
            .arg(best->dp)
            .arg(ui::format_tokens(best->max_tokens_hbm), ui::format_tokens(best->tokens_to_hide));
    }
    return tr("FSDP can be hidden at %1.").arg(sizes_text(hidden, consecutive));
}

void FsdpPage::fillTable() {
    const std::vector<FsdpPoint>& points = shown_->points;
    table_->clearSpans();
    table_->setRowCount(static_cast<int>(points.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const FsdpPoint& p = points[static_cast<std::size_t>(row)];
        table_->setItem(row, col_dp, cell(QString::number(p.dp)));
        table_->setItem(row, col_gpus, cell(QString::number(p.gpus)));
        if (p.dp == shown_->config.strategy.dp) {  // the strategy's own size stands out
            for (int c : {col_dp, col_gpus}) {
                QFont bold = table_->font();
                bold.setBold(true);
                table_->item(row, c)->setFont(bold);
                table_->item(row, c)->setToolTip(tr("The strategy's data-parallel size"));
            }
        }
        if (!runs(p)) {
            for (int c = col_needed; c < col_count; ++c) table_->setItem(row, c, cell(QString()));
            table_->setItem(row, col_needed, cell(tr("cannot run: %1").arg(ui::fsdp_verdict(p)), Qt::AlignLeft | Qt::AlignVCenter));
            table_->setSpan(row, col_needed, 1, col_count - col_needed);
            continue;
        }
        const bool fits = p.max_tokens_hbm > 0;
        table_->setItem(row, col_needed, cell(ui::format_tokens(p.tokens_to_hide)));
        table_->setItem(row, col_allowed, cell(fits ? ui::format_tokens(p.max_tokens_hbm) : tr("none")));
        table_->setItem(row, col_microbatch, cell(fits ? QString::number(p.max_microbatch) : QStringLiteral("–")));
        table_->setItem(row, col_traffic, cell(ui::format_seconds(p.fsdp_comm_s)));
        auto* verdict = cell(ui::fsdp_verdict(p), Qt::AlignLeft | Qt::AlignVCenter);
        verdict->setForeground(p.hidden() ? hidden_text : exposed_text);
        table_->setItem(row, col_verdict, verdict);
    }
    // At most as tall as its rows (up to a dozen, then it scrolls), at least a few rows when the
    // window is short: the chart takes the rest of the page.
    const auto height_of = [this](int rows) {
        return table_->horizontalHeader()->sizeHint().height() + rows * table_->verticalHeader()->defaultSectionSize() +
               table_->horizontalScrollBar()->sizeHint().height() + 2 * table_->frameWidth() + 4;
    };
    table_->setMaximumHeight(height_of(std::min(table_->rowCount(), max_table_rows)));
    table_->setMinimumHeight(height_of(std::min(table_->rowCount(), min_table_rows)));
}

const ui::ChartRenderable* FsdpPage::chart() const { return chart_.get(); }

}  // namespace comet::app
