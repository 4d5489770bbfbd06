#include "import_summary_dialog.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace comet::app {

ImportSummaryDialog::ImportSummaryDialog(const QString& what, const std::vector<std::string>& mapped,
                                         const std::vector<std::string>& warnings, const QString& verdict, QWidget* parent)
    : QDialog(parent), verdict_(verdict) {
    setObjectName(QStringLiteral("importBox"));
    setWindowTitle(tr("Imported"));
    auto* head = new QLabel(tr("<b>%1</b> imported with %2 mapped fields and %3 warnings. The import can be undone (Ctrl+Z).")
                                .arg(what.toHtmlEscaped())
                                .arg(mapped.size())
                                .arg(warnings.size()),
                            this);
    head->setWordWrap(true);
    auto* verdict_label = new QLabel(verdict.toHtmlEscaped(), this);
    verdict_label->setObjectName(QStringLiteral("importVerdict"));
    verdict_label->setWordWrap(true);
    QStringList lines;
    if (!warnings.empty()) {
        lines << tr("Warnings:");
        for (const auto& w : warnings) lines << QStringLiteral("  ") + QString::fromStdString(w);
        lines << QString();
    }
    lines << tr("Mapped:");
    for (const auto& m : mapped) lines << QStringLiteral("  ") + QString::fromStdString(m);
    details_ = new QPlainTextEdit(lines.join(QLatin1Char('\n')), this);
    details_->setReadOnly(true);
    details_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok, this);
    QPushButton* best = buttons->addButton(tr("Find &Best Strategy"), QDialogButtonBox::ActionRole);
    best->setObjectName(QStringLiteral("importFindBest"));
    connect(best, &QPushButton::clicked, this, [this] {
        Q_EMIT findBestRequested();
        accept();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(head);
    layout->addWidget(verdict_label);
    layout->addWidget(details_, 1);
    layout->addWidget(buttons);
    resize(820, 560);  // the mapping and warnings of a Calculon import are 20-40 lines
}

QString ImportSummaryDialog::details() const { return details_->toPlainText(); }

}  // namespace comet::app
