#pragma once
// The list parts of a DLRM's shape, which the field table's one-number editors cannot hold: the
// embedding table groups (count, rows, dim, pooling per sample) in a small table with Add and
// Remove, and the bottom and top MLPs' layer widths as comma-separated lists. An edit emits
// `edited` with the whole new DlrmSpec; the owner checks it (check_config) and applies it or
// shows why not (showError). Text that is not a number is refused here, with the cell named.

#include <QWidget>

#include "comet/spec.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace comet::ui {

class DlrmTablesEditor : public QWidget {
    Q_OBJECT
public:
    explicit DlrmTablesEditor(QWidget* parent = nullptr);

    // Shows `d` (without emitting).
    void setSpec(const DlrmSpec& d);
    // A message under the editor (empty: none), for a refused edit.
    void showError(const QString& message);
    [[nodiscard]] QString errorText() const;

    [[nodiscard]] QTableWidget* table() const noexcept { return table_; }
    [[nodiscard]] QLineEdit* bottomMlp() const noexcept { return bottom_; }
    [[nodiscard]] QLineEdit* topMlp() const noexcept { return top_; }
    [[nodiscard]] QPushButton* addButton() const noexcept { return add_; }
    [[nodiscard]] QPushButton* removeButton() const noexcept { return remove_; }

    // "512, 256, 128" -> widths; false with `problem` set when an item is not a whole number.
    static bool parseWidths(const QString& text, std::vector<int>& widths, QString& problem);

Q_SIGNALS:
    void edited(const comet::DlrmSpec& spec);

private:
    void fill();
    void cellEdited(int row, int column);
    void widthsEdited(QLineEdit* which);
    void addGroup();
    void removeGroup();

    DlrmSpec spec_;
    QTableWidget* table_ = nullptr;
    QLineEdit* bottom_ = nullptr;
    QLineEdit* top_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    QLabel* error_ = nullptr;
    bool filling_ = false;
};

}  // namespace comet::ui
