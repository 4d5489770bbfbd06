#pragma once
// File > Export > Chart: any chart of any page to PNG (chosen size and DPI), SVG or PDF, or to
// the clipboard. The charts are listed by the pages; the export itself is ui/export.

#include <QDialog>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace comet::ui {
class ChartRenderable;
}

namespace comet::app {

struct NamedChart {
    QString name;       // "Heatmap", "Tornado (sensitivity)"
    QString file_stem;  // suggested file name without extension
    const ui::ChartRenderable* chart = nullptr;
};

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // `current` = index of the chart selected at first (the current page's main chart).
    ExportDialog(std::vector<NamedChart> charts, int current, QWidget* parent = nullptr);

    // The export with the dialog's settings (tests call these directly); "" or the reason.
    [[nodiscard]] QString exportTo(const QString& path) const;
    void copyToClipboard() const;
    void setChart(int index);
    void setSize(int width, int height);
    void setDpi(int dpi);
    // The assumptions printed under the chart (a check box turns them off); empty = none.
    void setFooter(const QString& footer);
    [[nodiscard]] QString footer() const;  // what an export prints now

Q_SIGNALS:
    void exported(const QString& path);

private:
    void saveAs();
    void updateInfo();
    [[nodiscard]] const NamedChart& chart() const;

    std::vector<NamedChart> charts_;
    QComboBox* which_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QSpinBox* dpi_ = nullptr;
    QLabel* info_ = nullptr;
    QCheckBox* with_footer_ = nullptr;
    QString footer_;
};

}  // namespace comet::app
