# A copy of shared/tools/llbatch.py (scripts read nothing outside the repository).
# llama.cpp's own batched decode on this machine: the anchor for "N streams vs one".
# N sequences, each with its own short chat prompt, prefilled, then greedy decode of T tokens per
# sequence, one llama_decode per step holding one token of every sequence (what llama.cpp's server
# slots do). Prints JSON: single and aggregate tokens/s and their ratio.
# usage: llbatch.py MODEL.gguf [N=8] [T=64] [threads=2]
import ctypes, json, sys, time
import llama_cpp as L
import numpy as np

model_path = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 8
T = int(sys.argv[3]) if len(sys.argv) > 3 else 64
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 2

L.llama_backend_init()
mp = L.llama_model_default_params()
model = L.llama_model_load_from_file(model_path.encode(), mp)
vocab = L.llama_model_get_vocab(model)
n_vocab = L.llama_vocab_n_tokens(vocab)

def make_ctx(n_seq):
    cp = L.llama_context_default_params()
    cp.n_ctx = 512 * n_seq
    cp.n_batch = 512
    cp.n_ubatch = 512
    cp.n_seq_max = n_seq
    cp.n_threads = threads
    cp.n_threads_batch = threads
    return L.llama_init_from_model(model, cp)

def tokenize(text):
    buf = (L.llama_token * 512)()
    n = L.llama_tokenize(vocab, text.encode(), len(text.encode()), buf, 512, True, True)
    return list(buf[:n])

prompts = [f"<|im_start|>user\nWrite a short story about a {w}.<|im_end|>\n<|im_start|>assistant\n"
           for w in ["cat", "dog", "ship", "tree", "robot", "river", "city", "star",
                     "horse", "lamp", "clock", "bird", "stone", "cloud", "book", "key"]]

def argmax(ctx, i):
    return int(np.ctypeslib.as_array(L.llama_get_logits_ith(ctx, i), shape=(n_vocab,)).argmax())

def run(n_seq):
    ctx = make_ctx(n_seq)
    batch = L.llama_batch_init(512, 0, n_seq)
    last = []
    # prefill each sequence's prompt in its own decode call
    for s in range(n_seq):
        toks = tokenize(prompts[s])
        batch.n_tokens = len(toks)
        for i, t in enumerate(toks):
            batch.token[i] = t; batch.pos[i] = i; batch.n_seq_id[i] = 1; batch.seq_id[i][0] = s
            batch.logits[i] = 1 if i == len(toks) - 1 else 0
        assert L.llama_decode(ctx, batch) == 0
        last.append((argmax(ctx, len(toks) - 1), len(toks)))
    t0 = time.perf_counter()
    for step in range(T):
        batch.n_tokens = n_seq
        for s in range(n_seq):
            tok, pos = last[s]
            batch.token[s] = tok; batch.pos[s] = pos; batch.n_seq_id[s] = 1; batch.seq_id[s][0] = s; batch.logits[s] = 1
        assert L.llama_decode(ctx, batch) == 0
        last = [(argmax(ctx, s), last[s][1] + 1) for s in range(n_seq)]
    dt = time.perf_counter() - t0
    L.llama_batch_free(batch); L.llama_free(ctx)
    return n_seq * T / dt

single = run(1)
agg = run(N)
print(json.dumps({"model": model_path.split('/')[-1], "streams": N, "tokens": T, "threads": threads,
                  "single_stream_tokens_per_second": round(single, 1),
                  "aggregate_tokens_per_second": round(agg, 1), "ratio": round(agg / single, 2)}))
