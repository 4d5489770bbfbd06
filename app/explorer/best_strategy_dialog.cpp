#include "best_strategy_dialog.hpp"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "comet/evaluate.hpp"
#include "comet/memory.hpp"
#include "comet/report.hpp"
#include "comet/units.hpp"
#include "common/latest_job.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"

namespace comet::app {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

enum Column { col_rank, col_strategy, col_time, col_mfu, col_memory, col_why, col_count };

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    it->setToolTip(text);
    return it;
}

}  // namespace

BestStrategyDialog::BestStrategyDialog(ui::ScenarioDocument* doc, QWidget* parent)
    : QDialog(parent),
      doc_(doc),
      job_(std::make_unique<ui::LatestJob>()),
      done_(std::make_shared<std::atomic<std::uint64_t>>(0)),
      total_(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    setObjectName(QStringLiteral("bestStrategyDialog"));
    setWindowTitle(tr("Best Strategies"));
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("bestSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    table_ = new QTableWidget(0, col_count, this);
    table_->setObjectName(QStringLiteral("bestTable"));
    table_->setHorizontalHeaderLabels({tr("#"), tr("Strategy"), tr("Iteration"), tr("MFU"), tr("HBM / GPU"), tr("Why it beats the next")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(true);  // "why it beats the next" takes two lines rather than an ellipsis
    table_->setTextElideMode(Qt::ElideNone);
    table_->setAccessibleName(tr("Best strategies, fastest first"));
    auto* buttons = new QDialogButtonBox(this);
    apply_ = buttons->addButton(tr("&Apply Selected"), QDialogButtonBox::ApplyRole);
    apply_->setEnabled(false);
    cancel_ = buttons->addButton(tr("&Stop Search"), QDialogButtonBox::RejectRole);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(progress_);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(1180, 520);

    poll_ = new QTimer(this);
    poll_->setInterval(100);
    connect(poll_, &QTimer::timeout, this, &BestStrategyDialog::poll_progress);
    connect(apply_, &QPushButton::clicked, this, [this] { applyRow(table_->currentRow()); });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { applyRow(row); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] { apply_->setEnabled(table_->currentRow() >= 0 && !running()); });
    connect(cancel_, &QPushButton::clicked, this, [this] {
        job_->cancel();
        poll_->stop();
        progress_->hide();
        cancel_->setEnabled(false);
        summary_->setText(tr("Search stopped; nothing was changed."));
        Q_EMIT finished_search();
    });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
}

BestStrategyDialog::~BestStrategyDialog() = default;

bool BestStrategyDialog::running() const { return job_->busy(); }

QString BestStrategyDialog::summary() const { return summary_->text(); }

void BestStrategyDialog::start(bool apply_best) {
    apply_best_ = apply_best;
    searched_ = doc_->config();
    result_.reset();
    table_->setRowCount(0);
    done_->store(0);
    total_->store(0);
    progress_->setValue(0);
    progress_->show();
    cancel_->setEnabled(true);
    apply_->setEnabled(false);
    summary_->setText(
        tr("Searching every strategy for %1 on %2 x %3…")
            .arg(qs(doc_->scenario().model_info.name), QString::number(searched_.cluster.nodes), qs(doc_->scenario().node_info.name)));
    poll_->start();
    const Config base = searched_;
    ui::run_latest<SearchResult>(
        *job_,
        [base, done = done_, total = total_](const std::atomic<bool>& cancel) {
            SearchOptions opt;
            opt.top_k = shown;
            SearchControl control;
            control.cancel = &cancel;
            control.progress = [done, total](std::uint64_t d, std::uint64_t t) {
                done->store(d);
                total->store(t);
            };
            return search(base, opt, control);
        },
        [this, base](SearchResult r) { show_result(std::move(r), base); });
}

void BestStrategyDialog::poll_progress() {
    const std::uint64_t total = total_->load();
    if (total > 0) progress_->setValue(static_cast<int>(1000.0 * double(done_->load()) / double(total)));
}

void BestStrategyDialog::show_result(SearchResult r, const Config& searched) {
    poll_->stop();
    progress_->hide();
    cancel_->setEnabled(false);
    result_ = std::move(r);
    const SearchResult& sr = *result_;
    table_->setRowCount(static_cast<int>(sr.top.size()));
    const double reserved = hbm_unusable_bytes(searched.node, searched.software);
    for (int row = 0; row < static_cast<int>(sr.top.size()); ++row) {
        const Candidate& c = sr.top[static_cast<std::size_t>(row)];
        constexpr Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
        table_->setItem(row, col_rank, cell(QString::number(row + 1), right));
        table_->setItem(row, col_strategy, cell(qs(format_strategy(c.strategy, searched.workload))));
        table_->setItem(row, col_time, cell(ui::format_seconds(c.result.iteration_s), right));
        table_->setItem(row, col_mfu, cell(ui::format_metric(100.0 * c.result.mfu, ui::Metric::mfu), right));
        table_->setItem(row, col_memory,
                        cell(tr("%1 of %2 GiB")
                                 .arg(units::bytes_to_gib(c.result.hbm.used_bytes() - reserved), 0, 'f', 1)
                                 .arg(units::bytes_to_gib(c.result.hbm.capacity_bytes - reserved), 0, 'f', 1),
                             right));
        const bool last = row + 1 == static_cast<int>(sr.top.size());
        table_->setItem(row, col_why,
                        cell(last ? tr("(the slowest shown)") : qs(explain_lead(c.result, sr.top[std::size_t(row) + 1].result))));
    }
    table_->resizeRowsToContents();
    const QString searched_text = tr("%1 strategies evaluated (%2 pruned), %3 fit.")
                                      .arg(ui::format_count(double(sr.stats.evaluated)), ui::format_count(double(sr.stats.pruned)),
                                           ui::format_count(double(sr.stats.feasible)));
    if (!sr.found()) {
        const Candidate none = best_or_reason(searched, sr);
        summary_->setText(tr("No strategy runs: %1. %2").arg(qs(explain(none.result)), searched_text));
    } else if (apply_best_ && !(searched == doc_->config())) {
        summary_->setText(tr("The configuration changed during the search; nothing was applied. %1").arg(searched_text));
    } else if (apply_best_) {
        applyRow(0);
        summary_->setText(tr("Applied #1, %1 per iteration (Undo: Ctrl+Z). Double-click another row to use it instead. %2")
                              .arg(ui::format_seconds(sr.top.front().result.iteration_s), searched_text));
    } else {
        summary_->setText(tr("Double-click a row (or select it and Apply) to use its strategy. %1").arg(searched_text));
    }
    if (sr.found()) table_->selectRow(0);
    Q_EMIT finished_search();
}

void BestStrategyDialog::applyRow(int row) {
    if (!result_ || row < 0 || row >= static_cast<int>(result_->top.size())) return;
    Config c = doc_->config();
    const Strategy& s = result_->top[static_cast<std::size_t>(row)].strategy;
    if (c.strategy == s) return;
    Config same = searched_;
    same.strategy = c.strategy;
    if (!(same == c)) {
        summary_->setText(tr("The configuration changed since this search: search again (Ctrl+B) before applying."));
        return;
    }
    c.strategy = s;
    const QString what = tr("Use best strategy #%1 (%2)").arg(row + 1).arg(qs(format_strategy(s, c.workload)));
    doc_->setConfig(c, what);
    Q_EMIT applied(what);
}

}  // namespace comet::app
