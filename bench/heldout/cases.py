"""Hand-written certain crashes in the shapes real ML notebooks hit (issue 13, lever 4), each with a
clean twin. Kept apart from the test suite's pairs on purpose: the rules are not written against
these cells, so the share caught estimates how the checks do on crashes nobody tuned them for.

Each Case is (shape, setup, crash cell, clean twin). The bench runs every cell for real: a crash
cell that runs clean, or a twin that raises, is a broken case and fails the run.
"""

from __future__ import annotations

from typing import List, NamedTuple


class Case(NamedTuple):
    shape: str
    setup: str
    crash: str
    clean: str


PD = ("import pandas as pd\nimport numpy as np\n"
      "sales = pd.DataFrame({'region': ['n', 's', 'e', 'w'], 'units': [3, 5, 2, 8],\n"
      "                      'price': [2.5, 3.0, 1.0, 4.5], 'code': ['10', '20', 'x3', '40'],\n"
      "                      'when': ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01']})\n"
      "dates = pd.DataFrame({'day': pd.to_datetime(['2024-01-01', '2024-01-02'])})\n"
      "left = pd.DataFrame({'k': [1, 2], 'v': [3, 4]})\nright = pd.DataFrame({'k': [1, 2], 'v': [5, 6]})")
NP = ("import numpy as np\n"
      "feat = np.random.default_rng(0).normal(size=(5, 4))\nw = np.ones((3, 2))\nlabels = np.array([1, 0, 1, 1, 0])\n"
      "grid = np.zeros((4, 4))\ncol3 = np.arange(3.0)\nhalf = np.array([0.5, 1.5])\nscalar = np.array(7)")
SK = ("import numpy as np\nimport pandas as pd\n"
      "from sklearn.linear_model import LogisticRegression, LinearRegression, Ridge\n"
      "from sklearn.ensemble import RandomForestClassifier\nfrom sklearn.svm import SVC\n"
      "from sklearn.preprocessing import MinMaxScaler\nfrom sklearn.model_selection import train_test_split\n"
      "from sklearn.metrics import accuracy_score, f1_score\n"
      "Xtr = np.arange(40, dtype=float).reshape(10, 4)\nytr = np.array([0, 1] * 5)\n"
      "Xnan = Xtr.copy()\nXnan[2, 1] = np.nan\n"
      "raw = pd.DataFrame({'age': [20, 30, 40, 50], 'city': ['a', 'b', 'a', 'c']})\nyraw = [0, 1, 0, 1]\n"
      "model = LogisticRegression().fit(Xtr, ytr)\nforest = RandomForestClassifier(n_estimators=5)\n"
      "reg = LinearRegression().fit(Xtr, ytr.astype(float))\n"
      "frame = pd.DataFrame(Xtr, columns=['a', 'b', 'c', 'd'])")
TORCH = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
         "x = torch.randn(8, 10)\nbatch = torch.randn(2, 3, 16, 16)\nlayer = nn.Linear(20, 5)\n"
         "conv = nn.Conv2d(1, 4, kernel_size=3)\nt3 = torch.zeros(3)\nt4 = torch.zeros(4)\n"
         "logits = torch.randn(8, 1)\ntarget = torch.randn(8)")
CORE = "import math\nconfig = {'lr': 0.1, 'epochs': 3}\nhistory = {'loss': [0.9, 0.5], 'accuracy': [0.6, 0.8]}\nitems = [1, 2, 3]"

CASES: List[Case] = [
    # Names
    Case("name", PD, "sales.groupby('region').sum()\nprint(sale.shape)", "sales.groupby('region').sum()\nprint(sales.shape)"),
    Case("name", NP, "out = np.mean(feats, axis=0)", "out = np.mean(feat, axis=0)"),
    Case("name", CORE, "print(configs['lr'])", "print(config['lr'])"),
    Case("name", CORE, "n = len(item)", "n = len(items)"),
    # Builtin containers / dict keys (Keras history.history is a dict)
    Case("dict-key", CORE, "print(history['val_loss'][-1])", "print(history['loss'][-1])"),
    Case("dict-key", CORE, "rate = config['learning_rate']", "rate = config['lr']"),
    Case("list-index", CORE, "last = items[3]", "last = items[2]"),
    Case("builtin-call", CORE, "n = int('3.5')", "n = int('35')"),
    Case("builtin-call", CORE, "r = math.sqrt(-1)", "r = math.sqrt(4)"),
    Case("operand-types", CORE, "msg = 'epochs: ' + config['epochs']", "msg = 'epochs: ' + str(config['epochs'])"),
    # pandas
    Case("pandas-column", PD, "sales['unit'].mean()", "sales['units'].mean()"),
    Case("pandas-column", PD, "sales[['region', 'cost']]", "sales[['region', 'price']]"),
    Case("pandas-removed", PD, "sales = sales.append({'region': 'c'}, ignore_index=True)",
         "sales = pd.concat([sales, pd.DataFrame([{'region': 'c'}])], ignore_index=True)"),
    Case("pandas-removed", PD, "for name, col in sales.iteritems():\n    pass", "for name, col in sales.items():\n    pass"),
    Case("pandas-accessor", PD, "sales['units'].str.upper()", "sales['region'].str.upper()"),
    Case("pandas-accessor", PD, "sales['when'].dt.year", "dates['day'].dt.year"),
    Case("pandas-astype", PD, "sales['code'].astype(int)", "sales['units'].astype(int)"),
    Case("pandas-iloc", PD, "sales.iloc[4]", "sales.iloc[3]"),
    Case("pandas-iloc", PD, "sales.iloc[:, 5]", "sales.iloc[:, 4]"),
    Case("pandas-join", PD, "left.join(right)", "left.join(right, rsuffix='_r')"),
    Case("pandas-construct", PD, "pd.DataFrame(np.zeros((3, 2)), columns=['a', 'b', 'c'])",
         "pd.DataFrame(np.zeros((3, 2)), columns=['a', 'b'])"),
    Case("pandas-drop", PD, "sales.drop(columns=['discount'])", "sales.drop(columns=['price'])"),
    Case("pandas-loc", PD, "sales.loc[:, 'profit']", "sales.loc[:, 'price']"),
    Case("pandas-set-index", PD, "sales.set_index('store')", "sales.set_index('region')"),
    # NumPy
    Case("numpy-axis", NP, "feat.sum(axis=2)", "feat.sum(axis=1)"),
    Case("numpy-axis", NP, "np.mean(feat, axis=3)", "np.mean(feat, axis=1)"),
    Case("numpy-dot", NP, "feat @ w", "w @ w.T"),
    Case("numpy-dot", NP, "np.dot(feat, w)", "np.dot(feat.T, feat)"),
    Case("numpy-broadcast", NP, "feat + col3", "grid + np.arange(4.0)"),
    Case("numpy-broadcast", NP, "labels * half", "labels * 2"),
    Case("numpy-slice-assign", NP, "grid[:, 0] = col3", "grid[:, 0] = np.arange(4.0)"),
    Case("numpy-removed", NP, "x = np.float(3)", "x = np.float64(3)"),
    Case("numpy-removed", NP, "x = np.int(3)", "x = np.int64(3)"),
    Case("numpy-removed", NP, "arr = np.zeros(3, dtype=np.object)", "arr = np.zeros(3, dtype=object)"),
    Case("numpy-no-attr", NP, "s = labels.join(',')", "s = ','.join(str(v) for v in labels)"),
    Case("numpy-concat", NP, "np.concatenate([scalar, scalar])", "np.concatenate([col3, col3])"),
    Case("numpy-choice", NP, "np.random.choice(w)", "np.random.choice(labels)"),
    Case("numpy-index", NP, "feat[5]", "feat[4]"),
    Case("numpy-index", NP, "grid[1, 4]", "grid[1, 3]"),
    Case("numpy-reshape", NP, "feat.reshape(3, 7)", "feat.reshape(2, 10)"),
    Case("numpy-index-float", NP, "feat[col3[1]]", "feat[int(col3[1])]"),
    # scikit-learn
    Case("sklearn-strings", SK, "LogisticRegression().fit(raw, yraw)", "LogisticRegression().fit(raw[['age']], yraw)"),
    Case("sklearn-nan", SK, "LinearRegression().fit(Xnan, ytr)", "LinearRegression().fit(Xtr, ytr)"),
    Case("sklearn-unfitted", SK, "forest.predict(Xtr)", "forest.fit(Xtr, ytr).predict(Xtr)"),
    Case("sklearn-features", SK, "model.predict(Xtr[:, :3])", "model.predict(Xtr)"),
    Case("sklearn-features", SK, "reg.predict(np.ones((2, 5)))", "reg.predict(np.ones((2, 4)))"),
    Case("sklearn-lengths", SK, "Ridge().fit(Xtr, ytr[:7])", "Ridge().fit(Xtr, ytr)"),
    Case("sklearn-metric", SK, "accuracy_score(ytr, reg.predict(Xtr))", "accuracy_score(ytr, model.predict(Xtr))"),
    Case("sklearn-solver", SK, "LogisticRegression(penalty='l1', solver='lbfgs').fit(Xtr, ytr)",
         "LogisticRegression(penalty='l1', solver='liblinear').fit(Xtr, ytr)"),
    Case("sklearn-split", SK, "train_test_split(Xtr[:0], ytr[:0])", "train_test_split(Xtr, ytr)"),
    Case("sklearn-split", SK, "train_test_split(Xtr, ytr[:6])", "train_test_split(Xtr, ytr)"),
    Case("sklearn-1d", SK, "MinMaxScaler().fit(ytr)", "MinMaxScaler().fit(ytr.reshape(-1, 1))"),
    Case("sklearn-names", SK, "LinearRegression().fit(frame, ytr).predict(frame[['b', 'a', 'c', 'd']])",
         "LinearRegression().fit(frame, ytr).predict(frame[['a', 'b', 'c', 'd']])"),
    Case("sklearn-unfitted-attr", SK, "forest.feature_importances_", "forest.n_estimators"),
    # PyTorch
    Case("torch-matmul", TORCH, "y = x @ torch.randn(5, 3)", "y = x @ torch.randn(10, 3)"),
    Case("torch-matmul", TORCH, "y = torch.matmul(x, x)", "y = torch.matmul(x, x.T)"),
    Case("torch-linear", TORCH, "out = layer(x)", "out = layer(torch.randn(8, 20))"),
    Case("torch-elementwise", TORCH, "s = t3 + t4", "s = t3 + t3"),
    Case("torch-stack", TORCH, "st = torch.stack([t3, t4])", "st = torch.stack([t3, t3])"),
    Case("torch-cat", TORCH, "c = torch.cat([x, torch.zeros(8, 3, 1)], dim=1)", "c = torch.cat([x, torch.zeros(8, 3)], dim=1)"),
    Case("torch-conv", TORCH, "feat_maps = conv(batch)", "feat_maps = conv(torch.randn(2, 1, 16, 16))"),
    Case("torch-loss", TORCH, "loss = F.mse_loss(logits.squeeze(), torch.zeros(9))",
         "loss = F.mse_loss(logits.squeeze(), target)"),
    Case("torch-loss", TORCH, "loss = nn.CrossEntropyLoss()(torch.randn(8, 3), torch.zeros(7, dtype=torch.long))",
         "loss = nn.CrossEntropyLoss()(torch.randn(8, 3), torch.zeros(8, dtype=torch.long))"),
    Case("torch-module-call", TORCH, "import torch.optim\nopt = torch.optim(layer.parameters())",
         "import torch.optim\nopt = torch.optim.SGD(layer.parameters(), lr=0.1)"),
    Case("torch-view", TORCH, "v = x.view(3, -1)", "v = x.view(4, -1)"),
    Case("torch-no-attr", TORCH, "a = x.numpy_()", "a = x.numpy()"),
]
