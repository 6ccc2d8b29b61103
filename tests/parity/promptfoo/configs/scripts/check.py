def get_assert(output, context):
    return output == context['vars']['city']


def never(output, context):
    return {'pass': False, 'score': 0.2, 'reason': 'never passes'}
