#pragma once
// A preset drop-down whose closed box names the chosen preset in a way that fits: the whole name
// when it fits, else its short name (the part before " (": "GB300 NVL72" for "GB300 NVL72 (one
// 4-GPU compute tray of a 72-GPU NVLink domain)"), never a name cut off at the field's edge. The
// open list shows every name whole (it is as wide as its longest item) and the tooltip names the
// chosen preset whole.

#include <QComboBox>
#include <QString>

namespace comet::ui {

class PresetPicker : public QComboBox {
    Q_OBJECT

public:
    using QComboBox::QComboBox;

    // The shortest form of `name` a preset picker may show: before " (", else the whole name.
    [[nodiscard]] static QString shortName(const QString& name);

    // What the closed box draws (invokable: tests check it fits).
    [[nodiscard]] Q_INVOKABLE QString displayedText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    [[nodiscard]] int fieldWidth() const;
};

}  // namespace comet::ui
