#include "export_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "export/chart_export.hpp"
#include "export/chart_renderable.hpp"

namespace comet::app {

ExportDialog::ExportDialog(std::vector<NamedChart> charts, int current, QWidget* parent) : QDialog(parent), charts_(std::move(charts)) {
    setWindowTitle(tr("Export Chart"));
    which_ = new QComboBox(this);
    for (const NamedChart& c : charts_) which_->addItem(c.name);
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (QSpinBox* s : {width_, height_}) {
        s->setRange(ui::export_min_px, ui::export_max_px);
        s->setSuffix(tr(" px"));
        s->setSingleStep(50);
        connect(s, &QSpinBox::valueChanged, this, &ExportDialog::updateInfo);
    }
    width_->setToolTip(
        tr("Width in logical pixels (1 px = 1/96 in on paper); fonts keep their size, so a larger chart shows more room, not larger text"));
    height_->setToolTip(width_->toolTip());
    dpi_ = new QSpinBox(this);
    dpi_->setRange(static_cast<int>(ui::export_min_dpi), static_cast<int>(ui::export_max_dpi));
    dpi_->setValue(192);
    dpi_->setSuffix(tr(" dpi"));
    dpi_->setToolTip(tr("PNG resolution: 96 = screen size, 192 = sharp on high-DPI screens and slides, 300+ = print"));
    connect(dpi_, &QSpinBox::valueChanged, this, &ExportDialog::updateInfo);
    info_ = new QLabel(this);
    info_->setWordWrap(true);

    auto* size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    auto* form = new QFormLayout;
    form->addRow(tr("&Chart:"), which_);
    auto* size_label = new QLabel(tr("&Size:"), this);  // a layout cannot be a buddy: the width field is
    size_label->setBuddy(width_);
    form->addRow(size_label, size);
    form->addRow(tr("PNG &resolution:"), dpi_);
    with_footer_ = new QCheckBox(tr("&Assumptions under the chart"), this);
    with_footer_->setChecked(true);
    with_footer_->setVisible(false);  // until there is a footer to print
    form->addRow(QString(), with_footer_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* save = buttons->addButton(tr("&Save As…"), QDialogButtonBox::AcceptRole);
    QPushButton* copy = buttons->addButton(tr("Copy to Clip&board"), QDialogButtonBox::ActionRole);
    save->setToolTip(tr("PNG, SVG or PDF, chosen by the file name's extension"));
    copy->setToolTip(tr("The chart as an image, ready to paste into slides"));
    disconnect(buttons, nullptr, this, nullptr);
    connect(save, &QPushButton::clicked, this, &ExportDialog::saveAs);
    connect(copy, &QPushButton::clicked, this, [this] {
        copyToClipboard();
        info_->setText(tr("Copied %1 to the clipboard.").arg(chart().name));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Close), &QPushButton::clicked, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(info_);
    layout->addWidget(buttons);
    connect(which_, &QComboBox::currentIndexChanged, this, &ExportDialog::setChart);
    setChart(std::clamp(current, 0, std::max(0, static_cast<int>(charts_.size()) - 1)));
}

const NamedChart& ExportDialog::chart() const { return charts_.at(static_cast<std::size_t>(std::max(0, which_->currentIndex()))); }

void ExportDialog::setChart(int index) {
    if (index < 0 || index >= static_cast<int>(charts_.size())) return;
    if (which_->currentIndex() != index) which_->setCurrentIndex(index);
    const QSize preferred = charts_[static_cast<std::size_t>(index)].chart->preferredExportSize();
    setSize(preferred.width(), preferred.height());
}

void ExportDialog::setSize(int width, int height) {
    width_->setValue(width);
    height_->setValue(height);
    updateInfo();
}

void ExportDialog::setDpi(int dpi) { dpi_->setValue(dpi); }

void ExportDialog::setFooter(const QString& footer) {
    footer_ = footer;
    with_footer_->setVisible(!footer.isEmpty());
    with_footer_->setToolTip(footer);
}

QString ExportDialog::footer() const { return with_footer_->isChecked() ? footer_ : QString(); }

void ExportDialog::updateInfo() {
    const double scale = dpi_->value() / ui::export_px_per_inch;
    info_->setText(tr("PNG: %1 × %2 pixels. SVG and PDF: %3 × %4 in, vector.")
                       .arg(qRound(width_->value() * scale))
                       .arg(qRound(height_->value() * scale))
                       .arg(width_->value() / ui::export_px_per_inch, 0, 'f', 1)
                       .arg(height_->value() / ui::export_px_per_inch, 0, 'f', 1));
}

QString ExportDialog::exportTo(const QString& path) const {
    ui::ExportOptions o;
    o.size = QSize(width_->value(), height_->value());
    o.dpi = dpi_->value();
    o.footer = footer();
    return ui::export_chart(*chart().chart, path, o);
}

void ExportDialog::copyToClipboard() const {
    ui::copy_chart_to_clipboard(*chart().chart, QSize(width_->value(), height_->value()), footer());
}

void ExportDialog::saveAs() {
    QString selected;
    const QString suggested = QDir::home().filePath(chart().file_stem + QStringLiteral(".png"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export %1").arg(chart().name), suggested,
                                                      ui::chart_export_filters().join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    const QString target = ui::with_filter_extension(path, selected);
    const QString error = exportTo(target);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot export"), error);
        return;
    }
    info_->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
    Q_EMIT exported(target);
}

}  // namespace comet::app
