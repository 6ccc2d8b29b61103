def get_assert(output, context):
    words = len(output.split())
    return {
        'pass_': words >= 3,
        'score': min(words / 6, 1),
        'reason': f'{words} words',
        'named_scores': {'length': min(words / 6, 1)},
        'component_results': [
            {'pass_': words >= 3, 'score': 1 if words >= 3 else 0, 'reason': 'three words or more'},
        ],
    }
