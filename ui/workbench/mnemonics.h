// SPDX-License-Identifier: GPL-3.0-or-later
// Alt letters for the buttons of a dialog. Qt's standard buttons ("Save", "Discard", "Cancel" of
// a QMessageBox or a QDialogButtonBox) take their texts from the platform theme, and the plain
// X11 one (no GNOME or KDE session) underlines nothing: the keyboard reached them only by Tab.
#pragma once

class QWidget;

namespace ss::ui {

/// Gives each button of `dialog` that has no underlined letter one of its own: the first letter
/// of its text that no button or buddy label of the dialog underlines yet. Called once its
/// buttons are in place, before it is shown.
void giveButtonsMnemonics(QWidget& dialog);

} // namespace ss::ui
