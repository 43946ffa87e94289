"""Pairs for scikit-learn's ConfusionMatrixDisplay given display labels whose count is not the
matrix's class count (`.plot()` raises ValueError), with `confusion_matrix` of plain label vectors
worked out on the way. Same form as cases.py; the harness runs every cell for real (matplotlib on
Agg, figures closed after each case)."""

from __future__ import annotations

from typing import List

from cases import Pair

CMD = ("import numpy as np\nimport pandas as pd\nimport matplotlib\nmatplotlib.use('agg')\n"
       "import matplotlib.pyplot as plt\nfrom sklearn import metrics\n"
       "from sklearn.metrics import ConfusionMatrixDisplay, confusion_matrix\n"
       "cm3 = np.array([[5, 1, 0], [0, 4, 2], [1, 0, 6]])\ncm2 = np.array([[5, 1], [0, 4]])\n"
       "cmf = cm3 / cm3.sum()\n"
       "y_test = pd.Series(['versicolor', 'setosa', 'virginica', 'setosa'])\n"
       "y_pred = np.array(['versicolor', 'setosa', 'virginica', 'virginica'], dtype=object)\n"
       "t2 = np.array([0, 1, 1, 0])\np2 = np.array([1, 1, 0, 0])\nt3 = np.array([0, 1, 2, 2])\n"
       "y_nan = pd.Series(['setosa', None, 'virginica', 'setosa'])\ny_short = y_test[:3]")

DISPLAY_LABELS: List[Pair] = [
    # JunoBench sklearn_5 as written: three iris species, two display labels.
    Pair("display-labels", CMD,
         "from sklearn import metrics\nconfusion_matrix = metrics.confusion_matrix(y_test , y_pred)\n\n"
         "cm_display = metrics.ConfusionMatrixDisplay(confusion_matrix = confusion_matrix , "
         "display_labels=[False,True])\n\ncm_display.plot()\nplt.show()",
         "from sklearn import metrics\nconfusion_matrix = metrics.confusion_matrix(y_test , y_pred)\n\n"
         "cm_display = metrics.ConfusionMatrixDisplay(confusion_matrix = confusion_matrix , "
         "display_labels=['setosa', 'versicolor', 'virginica'])\n\ncm_display.plot()\nplt.show()", "ValueError"),
    Pair("display-labels", CMD, "ConfusionMatrixDisplay(confusion_matrix=cm3, display_labels=[False, True]).plot()",
         "ConfusionMatrixDisplay(confusion_matrix=cm2, display_labels=[False, True]).plot()", "ValueError"),
    Pair("display-labels", CMD, "ConfusionMatrixDisplay(cm2, display_labels=['a', 'b', 'c']).plot()",
         "ConfusionMatrixDisplay(cm3, display_labels=['a', 'b', 'c']).plot()", "ValueError"),
    Pair("display-labels", CMD, "d = ConfusionMatrixDisplay(cmf, display_labels=('x', 'y'))\nd.plot()",
         "d = ConfusionMatrixDisplay(cmf, display_labels=('x', 'y', 'z'))\nd.plot()", "ValueError"),
    Pair("display-labels", CMD, "cm = confusion_matrix(t2, p2)\nConfusionMatrixDisplay(cm, display_labels=[0, 1, 2]).plot()",
         "cm = confusion_matrix(t2, p2)\nConfusionMatrixDisplay(cm, display_labels=[0, 1]).plot()", "ValueError"),
    Pair("display-labels", CMD, "cm = confusion_matrix(t3, p2)\nConfusionMatrixDisplay(cm, display_labels=['no', 'yes']).plot()",
         "cm = confusion_matrix(t3, p2)\nConfusionMatrixDisplay(cm, display_labels=['n', 'y', 'm']).plot()",
         "ValueError"),
    Pair("display-labels", CMD,
         "cm = metrics.confusion_matrix(y_true=y_test, y_pred=y_pred)\n"
         "metrics.ConfusionMatrixDisplay(cm, display_labels=['one']).plot()\nplt.show()",
         "cm = metrics.confusion_matrix(y_true=y_test, y_pred=y_pred)\n"
         "metrics.ConfusionMatrixDisplay(cm, display_labels=[]).plot()\nplt.show()", "ValueError"),
    Pair("display-labels", CMD,
         "plt.figure(figsize=(6, 4))\nplt.title('before')\nplt.close()\n"
         "ConfusionMatrixDisplay(cm3, display_labels=[1.0, 2.0]).plot()",
         "plt.figure(figsize=(6, 4))\nplt.title('before')\nplt.close()\n"
         "ConfusionMatrixDisplay(cm3).plot()", "ValueError"),
    Pair("display-labels", CMD,
         "labels = ['cat', 'dog']\ncm = confusion_matrix(y_test, y_pred)\n"
         "disp = ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=['cat', 'dog'])\ndisp.plot()",
         "labels = ['cat', 'dog']\ncm = confusion_matrix(t2, p2)\n"
         "disp = ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=['cat', 'dog'])\ndisp.plot()",
         "ValueError"),
    # A figure the cell opens itself holds nothing of the notebook's.
    Pair("display-labels", CMD, "plt.figure()\nConfusionMatrixDisplay(cm3, display_labels=['a', 'b']).plot()",
         "plt.figure()\nConfusionMatrixDisplay(cm2, display_labels=['a', 'b']).plot()", "ValueError"),
    Pair("display-labels", CMD,
         "x = cm3.shape\nConfusionMatrixDisplay(cm3, display_labels=['a', 'b', 'c', 'd']).plot()",
         "x = cm3.shape\nConfusionMatrixDisplay(cm3, display_labels=['a', 'b', 'c']).plot()", "ValueError"),
]

PAIRS: List[Pair] = DISPLAY_LABELS

# These crash for real, but not certainly from what the checker sees: it must stay silent.
NO_CLAIM = [
    # confusion_matrix itself raises first (missing value among text, lengths or label kinds that differ).
    ("cm = confusion_matrix(y_nan, y_pred)\nConfusionMatrixDisplay(cm, display_labels=['a', 'b']).plot()", CMD),
    ("cm = confusion_matrix(y_short, y_pred)\nConfusionMatrixDisplay(cm, display_labels=['a', 'b']).plot()", CMD),
    ("cm = confusion_matrix(t3, y_pred)\nConfusionMatrixDisplay(cm, display_labels=['a', 'b']).plot()", CMD),
    # Labels held in a variable (a list may change before plot() reads it) or built by a call.
    ("labels = ['a', 'b']\nConfusionMatrixDisplay(cm3, display_labels=labels).plot()", CMD),
    ("ConfusionMatrixDisplay(cm3, display_labels=list('ab')).plot()", CMD),
    # plot() given its own Axes or options: not modelled.
    ("fig, ax = plt.subplots()\nConfusionMatrixDisplay(cm3, display_labels=['a', 'b']).plot(ax=ax)", CMD),
    ("ConfusionMatrixDisplay(cm3, display_labels=['a', 'b']).plot(cmap='Blues')", CMD),
    # A figure an earlier cell left open may hold the notebook's own artists.
    ("ConfusionMatrixDisplay(cm3, display_labels=['a', 'b']).plot()", CMD + "\n_open = plt.figure()"),
]
