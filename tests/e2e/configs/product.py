"""The "product" the Python code step of tests/e2e/code-step.spec.ts calls (see product.ts)."""
import os


def call(input, context):
    question = input.get("question") or "(none)"
    return {"text": f"{context['node']} answered: {question.upper()}", "words": len(question.split()), "sees_key": "E2E_API_KEY" in os.environ}
