import { h, type FunctionalComponent } from 'vue'
import { getBezierPath, type EdgeProps } from '@vue-flow/core'

/**
 * An edge of the canvas: its curve and a wider invisible path that takes the clicks. Vue Flow's
 * own bezier edge is two components deep and copies every edge prop (nodes, events, data…) onto
 * the path as DOM attributes: some 3,500 attribute writes each time a 200-step workflow is drawn.
 */
const StepEdge: FunctionalComponent<EdgeProps> = (props) => {
  const [d] = getBezierPath(props)
  return [
    h('path', { 'class': 'vue-flow__edge-path', d, 'style': props.style, 'marker-end': props.markerEnd }),
    h('path', { 'class': 'vue-flow__edge-interaction', d, 'fill': 'none', 'stroke-opacity': 0, 'stroke-width': 20 }),
  ]
}
// Only these are read; declaring them keeps the rest (nodes, events, data) off the DOM.
StepEdge.props = ['sourceX', 'sourceY', 'targetX', 'targetY', 'sourcePosition', 'targetPosition', 'markerEnd', 'style']
StepEdge.inheritAttrs = false

export default StepEdge
