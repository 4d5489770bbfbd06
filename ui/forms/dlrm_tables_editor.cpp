#include "forms/dlrm_tables_editor.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace comet::ui {

namespace {

enum Column { count_column = 0, rows_column, dim_column, pooling_column, column_count };

// The shorter of the plain and the exact scientific form, so that a narrow column shows the whole
// number from a million up: 2000000000 is "2e9" (issue 40: "2000000…"), 39884406 stays as it is;
// either reads back, and the cell's tooltip gives it with grouping.
QString number_text(double v, bool whole) {
    if (!whole) return QString::number(v, 'g', 10);
    QString plain = QString::number(v, 'f', 0);
    if (std::abs(v) < 1e6) return plain;  // counts, dims: as typed
    for (int digits = 1; digits <= 6; ++digits) {
        QString sci = QString::number(v, 'e', digits - 1);  // "2.50e+09"
        if (sci.toDouble() != v) continue;
        const qsizetype e = sci.indexOf(u'e');
        QString mantissa = sci.left(e);
        const int exponent = QStringView(sci).mid(e + 1).toInt();
        if (mantissa.contains(u'.')) {
            while (mantissa.endsWith(u'0')) mantissa.chop(1);
            if (mantissa.endsWith(u'.')) mantissa.chop(1);
        }
        sci = mantissa + QStringLiteral("e") + QString::number(exponent);
        return sci.size() < plain.size() ? sci : plain;
    }
    return plain;
}

QString widths_text(const std::array<int, DlrmSpec::max_mlp_layers>& widths, int layers) {
    QStringList items;
    for (int i = 0; i < layers && i < DlrmSpec::max_mlp_layers; ++i) items << QString::number(widths[static_cast<std::size_t>(i)]);
    return items.join(QStringLiteral(", "));
}

// A number typed in a cell: "40000000", "4e7", "40,000,000" (grouping commas are dropped).
bool parse_number(QString text, double& out) {
    text = text.trimmed();
    text.remove(u',');
    text.remove(u' ');
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) return false;
    out = v;
    return true;
}

}  // namespace

DlrmTablesEditor::DlrmTablesEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, column_count, this);
    table_->setObjectName(QStringLiteral("dlrmTables"));
    table_->setHorizontalHeaderLabels({tr("Tables"), tr("Rows"), tr("Dim"), tr("Pooling")});
    // The panel is narrow: the columns share its width, and the table never widens the panel.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(24);
    table_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setToolTip(
        tr("Embedding table groups: how many identical tables, their rows and columns (dim), and the rows a "
           "sample looks up in each (pooling, the multi-hot size; 1 = one-hot). Up to 32 groups."));
    table_->setMinimumHeight(table_->fontMetrics().height() * 9);
    layout->addWidget(table_);
    auto* buttons = new QHBoxLayout;
    add_ = new QPushButton(tr("Add group"), this);
    add_->setObjectName(QStringLiteral("dlrmAddGroup"));
    add_->setToolTip(tr("Add a table group (a copy of the selected one)."));
    remove_ = new QPushButton(tr("Remove group"), this);
    remove_->setObjectName(QStringLiteral("dlrmRemoveGroup"));
    remove_->setToolTip(tr("Remove the selected table group (a model keeps at least one)."));
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    auto* widths = new QFormLayout;
    bottom_ = new QLineEdit(this);
    bottom_->setMinimumWidth(60);
    bottom_->setObjectName(QStringLiteral("dlrm.bottom_mlp"));
    bottom_->setToolTip(
        tr("Widths of the bottom MLP's layers, from the dense features up, separated by commas (MLPerf "
           "DLRM-DCNv2: 512, 256, 128). Empty = no bottom MLP."));
    top_ = new QLineEdit(this);
    top_->setMinimumWidth(60);
    top_->setObjectName(QStringLiteral("dlrm.top_mlp"));
    top_->setToolTip(
        tr("Widths of the top MLP's layers, from the interaction to the logit, separated by commas (MLPerf "
           "DLRM-DCNv2: 1024, 1024, 512, 256, 1)."));
    widths->addRow(tr("Bottom MLP"), bottom_);
    widths->addRow(tr("Top MLP"), top_);
    layout->addLayout(widths);
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("dlrmTablesError"));
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    error_->hide();
    layout->addWidget(error_);

    connect(table_, &QTableWidget::cellChanged, this, &DlrmTablesEditor::cellEdited);
    connect(add_, &QPushButton::clicked, this, &DlrmTablesEditor::addGroup);
    connect(remove_, &QPushButton::clicked, this, &DlrmTablesEditor::removeGroup);
    connect(bottom_, &QLineEdit::editingFinished, this, [this] { widthsEdited(bottom_); });
    connect(top_, &QLineEdit::editingFinished, this, [this] { widthsEdited(top_); });
}

void DlrmTablesEditor::setSpec(const DlrmSpec& d) {
    spec_ = d;
    fill();
}

void DlrmTablesEditor::fill() {
    filling_ = true;
    const int groups = std::clamp(spec_.table_groups, 0, DlrmSpec::max_table_groups);
    table_->setRowCount(groups);
    for (int g = 0; g < groups; ++g) {
        const EmbeddingTableGroup& t = spec_.tables[static_cast<std::size_t>(g)];
        const double values[column_count] = {double(t.count), t.rows, double(t.dim), t.pooling};
        for (int col = 0; col < column_count; ++col) {
            auto* item = new QTableWidgetItem(number_text(values[col], col != pooling_column));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(QLocale(QLocale::English).toString(values[col], 'f', col != pooling_column ? 0 : 3));
            table_->setItem(g, col, item);
        }
    }
    if (!bottom_->hasFocus()) bottom_->setText(widths_text(spec_.bottom_mlp, spec_.bottom_layers));
    if (!top_->hasFocus()) top_->setText(widths_text(spec_.top_mlp, spec_.top_layers));
    add_->setEnabled(groups < DlrmSpec::max_table_groups);
    remove_->setEnabled(groups > 1);
    filling_ = false;
}

void DlrmTablesEditor::showError(const QString& message) {
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
}

QString DlrmTablesEditor::errorText() const { return error_->isVisible() ? error_->text() : QString(); }

bool DlrmTablesEditor::parseWidths(const QString& text, std::vector<int>& widths, QString& problem) {
    widths.clear();
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) return true;
    const QStringList items = trimmed.split(u',');
    for (const QString& raw : items) {
        double v = 0;
        if (!parse_number(raw, v) || std::floor(v) != v || std::abs(v) > 2147483647.0) {
            problem = tr("“%1” is not a whole number").arg(raw.trimmed());
            return false;
        }
        widths.push_back(static_cast<int>(v));
    }
    if (widths.size() > static_cast<std::size_t>(DlrmSpec::max_mlp_layers)) {
        problem = tr("%1 layers; at most 8").arg(widths.size());
        return false;
    }
    return true;
}

void DlrmTablesEditor::cellEdited(int row, int column) {
    if (filling_ || row < 0 || row >= spec_.table_groups) return;
    static const char* names[column_count] = {"tables", "rows", "dim", "pooling"};
    QTableWidgetItem* item = table_->item(row, column);
    double v = 0;
    const bool whole = column != pooling_column;
    if (!item || !parse_number(item->text(), v) || (whole && std::floor(v) != v) || (column != rows_column && std::abs(v) > 2147483647.0)) {
        showError(tr("Table group %1, %2: “%3” is not a %4.")
                      .arg(row + 1)
                      .arg(tr(names[column]), item ? item->text() : QString(), whole ? tr("whole number") : tr("number")));
        fill();
        return;
    }
    DlrmSpec d = spec_;
    EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(row)];
    switch (column) {
        case count_column:
            t.count = static_cast<int>(v);
            break;
        case rows_column:
            t.rows = v;
            break;
        case dim_column:
            t.dim = static_cast<int>(v);
            break;
        default:
            t.pooling = v;
            break;
    }
    showError({});
    fill();  // the document's answer comes back through setSpec
    Q_EMIT edited(d);
}

void DlrmTablesEditor::widthsEdited(QLineEdit* which) {
    std::vector<int> widths;
    QString problem;
    if (!parseWidths(which->text(), widths, problem)) {
        showError((which == bottom_ ? tr("Bottom MLP: %1.") : tr("Top MLP: %1.")).arg(problem));
        return;
    }
    DlrmSpec d = spec_;
    auto& target = which == bottom_ ? d.bottom_mlp : d.top_mlp;
    int& layers = which == bottom_ ? d.bottom_layers : d.top_layers;
    target.fill(0);
    for (std::size_t i = 0; i < widths.size(); ++i) target[i] = widths[i];
    layers = static_cast<int>(widths.size());
    if (d == spec_) return;
    showError({});
    Q_EMIT edited(d);
}

void DlrmTablesEditor::addGroup() {
    if (spec_.table_groups >= DlrmSpec::max_table_groups) return;
    DlrmSpec d = spec_;
    const int from = std::clamp(table_->currentRow(), 0, std::max(0, d.table_groups - 1));
    d.tables[static_cast<std::size_t>(d.table_groups)] =
        d.table_groups > 0 ? d.tables[static_cast<std::size_t>(from)] : EmbeddingTableGroup{1, 1e6, 128, 1};
    ++d.table_groups;
    Q_EMIT edited(d);
}

void DlrmTablesEditor::removeGroup() {
    if (spec_.table_groups <= 1) return;
    DlrmSpec d = spec_;
    const int at = table_->currentRow() >= 0 ? table_->currentRow() : d.table_groups - 1;
    for (std::size_t g = static_cast<std::size_t>(at); g + 1 < static_cast<std::size_t>(d.table_groups); ++g) d.tables[g] = d.tables[g + 1];
    d.tables[static_cast<std::size_t>(d.table_groups - 1)] = EmbeddingTableGroup{};
    --d.table_groups;
    Q_EMIT edited(d);
}

}  // namespace comet::ui
