"""Hyper-parameters of a generated model, presets and their validation."""

from dataclasses import asdict, dataclass, replace

ARCHS = ("gpt", "gpt2", "llama")
OPSETS = (17, 18, 19, 20, 21)
DEFAULT_OPSET = 20

# Presets name the architecture and its sizes; the opset and the other knobs keep
# their defaults unless given on the command line.
PRESETS = {
    "gpt2-small-test": dict(arch="gpt2", layers=2, hidden=64, heads=4,
                            vocab=128, seq=16, batch=2),
    "llama-small-test": dict(arch="llama", layers=2, hidden=64, heads=4,
                             kv_heads=2, ffn=128, vocab=128, seq=16, batch=2),
    "gpt-small-test": dict(arch="gpt", layers=2, hidden=64, heads=4,
                           vocab=128, seq=16, batch=2),
    # The PyTorch peer's benchmark model (shared/peers/bench_torch.py).
    "gpt-406m": dict(arch="gpt", layers=24, hidden=1024, heads=16,
                     vocab=50304, seq=1024, batch=8, max_pos=1024),
}


@dataclass(frozen=True)
class ModelConfig:
    """Everything that determines a generated model and its test data.

    ``kv_heads``, ``ffn`` and ``max_pos`` may be left as None and are then
    resolved by :meth:`resolved` (kv_heads = heads, ffn = 4 * hidden,
    max_pos = max(128, seq)).
    """

    arch: str
    layers: int
    hidden: int
    heads: int
    vocab: int
    seq: int
    batch: int
    kv_heads: int | None = None
    ffn: int | None = None
    max_pos: int | None = None
    opset: int = DEFAULT_OPSET
    loss: bool = False
    external_data: bool = False
    seed: int = 0
    dtype: str = "float32"
    gelu: str = "tanh-pattern"
    linear: str = "matmul"
    shape_only: bool = False
    # Dropout in training mode (as torch.onnx exports a model in train()) on
    # gpt2's embeddings and residual branches; 0: none.
    dropout: float = 0.0

    @property
    def head_dim(self) -> int:
        """Size of one attention head."""
        return self.hidden // self.heads

    def resolved(self) -> "ModelConfig":
        """Return a copy with defaults filled in, after checking consistency."""
        cfg = replace(
            self,
            kv_heads=self.heads if self.kv_heads is None else self.kv_heads,
            ffn=4 * self.hidden if self.ffn is None else self.ffn,
            max_pos=max(128, self.seq) if self.max_pos is None else self.max_pos,
        )
        cfg._validate()
        return cfg

    def to_json(self) -> dict:
        """The configuration as a JSON-ready dict, with derived sizes."""
        return {**asdict(self), "head_dim": self.head_dim}

    def _validate(self) -> None:
        """Raise ValueError on inconsistent hyper-parameters."""
        def require(cond: bool, msg: str) -> None:
            """Raise ValueError(msg) unless cond holds."""
            if not cond:
                raise ValueError(msg)

        require(self.arch in ARCHS, f"unknown arch {self.arch!r}")
        require(self.opset in OPSETS, f"opset must be one of {OPSETS}")
        require(self.dtype == "float32", "only float32 is supported")
        for name in ("layers", "hidden", "heads", "kv_heads", "ffn", "vocab",
                     "seq", "batch", "max_pos"):
            require(getattr(self, name) > 0, f"{name} must be positive")
        require(self.hidden % self.heads == 0, "hidden must be divisible by heads")
        require(self.heads % self.kv_heads == 0, "heads must be divisible by kv_heads")
        require(self.max_pos >= self.seq, "max_pos must be >= seq")
        require(self.seq >= 2 or not self.loss, "--loss needs seq >= 2")
        require(self.gelu == "tanh-pattern" or self.opset >= 20,
                "--gelu op needs opset >= 20 (Gelu was added in opset 20)")
        require(self.gelu == "tanh-pattern" or self.arch == "gpt2",
                "--gelu applies to gpt2 only (llama uses SwiGLU)")
        require(0.0 <= self.dropout < 1.0, "dropout must be in [0, 1)")
        require(self.dropout == 0.0 or self.arch == "gpt2",
                "--dropout applies to gpt2 only")
        if self.arch in ("gpt", "gpt2"):
            require(self.kv_heads == self.heads,
                    f"{self.arch} has no grouped-query attention")
        else:
            require(self.head_dim % 2 == 0, "rotary embedding needs an even head_dim")
